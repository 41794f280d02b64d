// coyote-pi's page: server-sent events keep the table page and the setup page up to date.
// The server renders every part; this script only swaps in what an event brings. No
// polling: EventSource keeps one connection open and reconnects by itself.
(function () {
  "use strict";
  var hook = document.body.hasAttribute("data-test-hook");
  // The test hook (coyote-pi web --test-hook): every message, with the time it was shown.
  if (hook) { window.coyoteMessages = []; }

  function listen(url, name, onMessage, onState) {
    if (!window.EventSource) { return; }
    var source = new EventSource(url);
    source.addEventListener(name, function (event) {
      var message = JSON.parse(event.data);
      onMessage(message);
      if (hook) {
        window.coyoteMessages.push({channel: name, shown: performance.timeOrigin + performance.now(), data: event.data});
      }
    });
    if (onState) {
      source.addEventListener("open", function () { onState(true); });
      source.addEventListener("error", function () { onState(false); });
    }
  }

  var live = document.getElementById("live");
  if (live) {
    var connection = document.getElementById("connection");
    listen("/events", "table", function (message) {
      live.innerHTML = message.html;
      document.body.setAttribute("data-seq", message.seq);
    }, function (up) {
      connection.textContent = connection.getAttribute(up ? "data-live" : "data-offline");
      connection.className = "connection " + (up ? "up" : "down");
    });
  }

  var status = document.getElementById("setup-status");
  if (status) {
    // Said while the stream is down: the server is away (EventSource retries) or it
    // refused the stream for good (the session ended, or a game started).
    var lost = document.getElementById("setup-connection");
    listen("/setup/events", "setup", function (message) {
      if (!message.state.between_games) { window.location.reload(); return; }
      status.innerHTML = message.html;
    }, function (up) { lost.hidden = up; });
  }
})();
