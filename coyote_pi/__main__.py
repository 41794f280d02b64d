from coyote_pi.cli import main

raise SystemExit(main())
