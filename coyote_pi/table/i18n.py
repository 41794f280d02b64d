"""Every text the table shows players, in English, German and Russian.

Screens never hold literal text: they ask a :class:`Translator` for a key and its
parameters, so adding a screen means adding one key in all three languages (a test
checks that every key exists in each language with the same parameters, and that the
shipped font draws every character)::

    >>> tr = Translator("de")
    >>> tr("msg.not_your_turn", seat=4)
    'Platz 4: nicht dran'
    >>> Translator("ru")("choice.coyote")
    'КОЙОТ!'

Refusals from the engine (:class:`~coyote_pi.engine.errors.IllegalAction`) carry a
``code``; :func:`refusal_key` maps it to a short message key (the engine's own English
sentence is too long for a 128x64 screen and only English).

Card values are written with :func:`card_text` (``Max 0`` in every language).
"""

from __future__ import annotations

import string

from coyote_pi import cards

LANGUAGES: tuple[str, ...] = ("en", "de", "ru")
#: How each language names itself on the setup screen (never translated).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "ru": "Русский"}

CATALOGUE: dict[str, dict[str, str]] = {
    # --- setup ----------------------------------------------------------------------
    "setup.title": {"en": "Setup", "de": "Start", "ru": "Старт"},
    "setup.players": {"en": "Players", "de": "Spieler", "ru": "Игроки"},
    "setup.variant": {"en": "Variant", "de": "Variante", "ru": "Вариант"},
    "setup.language": {"en": "Language", "de": "Sprache", "ru": "Язык"},
    "setup.hint": {"en": "-/+ change, ok next", "de": "-/+ ändern, ok weiter", "ru": "-/+ выбор, ok далее"},
    "setup.stands": {
        "en": "Camera sees {count} stands",
        "de": "Kamera sieht {count} Ständer",
        "ru": "Камера видит подставок: {count}",
    },
    # A stand the camera misses, or sees too near the frame's edge, while it counts them.
    "setup.stand_missing": {"en": "Stand {seat}: not seen", "de": "Ständer {seat}: nicht im Bild",
                            "ru": "Подставка {seat}: не видна"},
    "setup.stand_edge": {"en": "Stand {seat}: near the edge", "de": "Ständer {seat}: am Bildrand",
                         "ru": "Подставка {seat}: у края"},
    "setup.not_resumed": {
        "en": "Could not resume {name}: a new game starts",
        "de": "{name} nicht fortsetzbar: neues Spiel",
        "ru": "Не удалось продолжить {name}: новая игра",
    },
    "setup.start_title": {"en": "Who starts?", "de": "Wer beginnt?", "ru": "Кто начинает?"},
    "setup.start_big": {"en": "Youngest: ok", "de": "Jüngste: ok", "ru": "Младший: ok"},
    "setup.start_hint": {
        "en": "The youngest player presses ok at their seat.",
        "de": "Die jüngste Person drückt ok an ihrem Platz.",
        "ru": "Самый младший игрок нажимает ok у своего места.",
    },
    "variant.basic": {"en": "Basic", "de": "Grundspiel", "ru": "Базовый"},
    "variant.trickster": {"en": "Trickster", "de": "Trickster", "ru": "Трикстер"},
    # --- dealing --------------------------------------------------------------------
    "round.title": {"en": "Round {round}", "de": "Runde {round}", "ru": "Раунд {round}"},
    "deal.big": {"en": "Deal", "de": "Geben", "ru": "Раздача"},
    "deal.hint": {
        "en": "One card on each stand, one face down on the centre slot.",
        "de": "Eine Karte auf jeden Ständer, eine verdeckt auf das Mittelfeld.",
        "ru": "По карте на каждую подставку, одну рубашкой вверх в центр.",
    },
    "deal.manual_big": {"en": "Dealt? ok", "de": "Fertig? ok", "ru": "Готово? ok"},
    "deal.manual_hint": {
        "en": "Deal as usual, then press ok. Cards are entered at the reveal.",
        "de": "Normal geben, dann ok drücken. Karten werden beim Aufdecken eingegeben.",
        "ru": "Раздайте карты и нажмите ok. Карты вводятся при вскрытии.",
    },
    "camera.looking": {"en": "Camera is looking…", "de": "Kamera schaut…", "ru": "Камера смотрит…"},
    "camera.offer_manual": {
        "en": "Stuck? minus+plus, then ok: enter by hand",
        "de": "Hängt? minus+plus, dann ok: von Hand",
        "ru": "Не выходит? минус+плюс, затем ok: вручную",
    },
    "manual.title": {"en": "Enter cards by hand?", "de": "Karten von Hand?", "ru": "Карты вручную?"},
    "manual.big": {"en": "Seat {seat}: ok?", "de": "Platz {seat}: ok?", "ru": "Место {seat}: ok?"},
    "correct.offer_title": {"en": "Correct a card?", "de": "Karte korrigieren?", "ru": "Исправить карту?"},
    "manual.hint": {
        "en": "ok: yes. Any other button: no.",
        "de": "ok: ja. Jede andere Taste: nein.",
        "ru": "ok: да. Любая другая кнопка: нет.",
    },
    # --- camera problems (never name a card of the open round) -------------------
    "problem.seat_missing": {"en": "Seat {seat}: no card", "de": "Platz {seat}: keine Karte", "ru": "Место {seat}: нет карты"},
    "problem.seat_unreadable": {
        "en": "Seat {seat}: card unreadable",
        "de": "Platz {seat}: Karte unlesbar",
        "ru": "Место {seat}: карта не читается",
    },
    "problem.seat_covered": {
        "en": "Seat {seat}: card covered?",
        "de": "Platz {seat}: Karte verdeckt?",
        "ru": "Место {seat}: карта закрыта?",
    },
    "problem.seat_several": {
        "en": "Seat {seat}: more than one card",
        "de": "Platz {seat}: mehr als eine Karte",
        "ru": "Место {seat}: больше одной карты",
    },
    "problem.seat_no_stand": {
        "en": "Seat {seat}: stand not seen",
        "de": "Platz {seat}: Ständer nicht zu sehen",
        "ru": "Место {seat}: подставка не видна",
    },
    "problem.seat_not_playing": {
        "en": "Seat {seat} is not playing: take the card away",
        "de": "Platz {seat} spielt nicht: Karte wegnehmen",
        "ru": "Место {seat} не играет: уберите карту",
    },
    "problem.duplicate": {
        "en": "Seats {seats}: the same card twice?",
        "de": "Plätze {seats}: zweimal dieselbe Karte?",
        "ru": "Места {seats}: одна карта дважды?",
    },
    "problem.duplicate_deal": {
        "en": "The same card twice: collect the cards, deal again",
        "de": "Dieselbe Karte zweimal: einsammeln, neu geben",
        "ru": "Одна карта дважды: соберите карты, раздайте заново",
    },
    "problem.duplicate_anywhere": {
        "en": "A card is seen twice",
        "de": "Eine Karte ist doppelt zu sehen",
        "ru": "Одна карта видна дважды",
    },
    "problem.loose_card": {
        "en": "A card lies face up outside the stands",
        "de": "Eine offene Karte liegt neben den Ständern",
        "ru": "Открытая карта лежит вне подставок",
    },
    "problem.slot_missing": {"en": "{slot}: no card", "de": "{slot}: keine Karte", "ru": "{slot}: нет карты"},
    "problem.slot_face_up": {
        "en": "{slot}: turn the card face down",
        "de": "{slot}: Karte umdrehen (verdeckt)",
        "ru": "{slot}: переверните карту рубашкой вверх",
    },
    "problem.slot_face_down": {
        "en": "{slot}: turn the card face up",
        "de": "{slot}: Karte aufdecken",
        "ru": "{slot}: откройте карту",
    },
    "problem.slot_unclear": {"en": "{slot}: cannot see the card", "de": "{slot}: Karte nicht erkennbar", "ru": "{slot}: карта не видна"},
    "problem.slot_occupied": {"en": "{slot}: take the card away", "de": "{slot}: Karte wegnehmen", "ru": "{slot}: уберите карту"},
    "problem.no_table": {"en": "Camera sees no table", "de": "Kamera sieht keinen Tisch", "ru": "Камера не видит стол"},
    "problem.camera_error": {"en": "Camera: no picture", "de": "Kamera: kein Bild", "ru": "Камера: нет кадра"},
    "problem.camera_hung": {"en": "Camera not answering", "de": "Kamera antwortet nicht", "ru": "Камера не отвечает"},
    "problem.no_camera": {"en": "No camera", "de": "Keine Kamera", "ru": "Нет камеры"},
    # Why the camera configured did not start (the table then runs on the buttons).
    "problem.camera_start": {"en": "No camera: check its cable", "de": "Keine Kamera: Kabel prüfen",
                             "ru": "Нет камеры: проверьте шлейф"},
    "problem.camera_library": {"en": "No camera: its software fails (coyote-pi doctor)",
                               "de": "Keine Kamera: Software defekt (coyote-pi doctor)",
                               "ru": "Нет камеры: сбой ПО (coyote-pi doctor)"},
    "slot.centre": {"en": "Centre", "de": "Mitte", "ru": "Центр"},
    "slot.extra": {"en": "Extra slot", "de": "Extrafeld", "ru": "Доп. место"},
    "slot.draw": {"en": "Draw slot", "de": "Ziehfeld", "ru": "Место добора"},
    # --- a turn ---------------------------------------------------------------------
    "turn.title_first": {"en": "Seat {seat} opens", "de": "Platz {seat} beginnt", "ru": "Место {seat} начинает"},
    "turn.title": {"en": "Seat {seat} · bid {bid}", "de": "Platz {seat} · Gebot {bid}", "ru": "Место {seat} · ставка {bid}"},
    "choice.coyote": {"en": "COYOTE!", "de": "COYOTE!", "ru": "КОЙОТ!"},
    "choice.peek": {"en": "PEEK", "de": "SPICKEN", "ru": "ПОДСМОТР"},
    "choice.coyote_card": {"en": "COYOTE CARD", "de": "COYOTE-KARTE", "ru": "КАРТА КОЙОТА"},
    "hint.first_bid": {
        "en": "ok: bid {amount} (any)",
        "de": "ok: {amount} (frei)",
        "ru": "ok: ставка {amount}",
    },
    "hint.bid": {"en": "ok: bid {amount}", "de": "ok: {amount} bieten", "ru": "ok: ставка {amount}"},
    "hint.must_raise": {
        "en": "Now raise. ok: bid {amount}",
        "de": "Jetzt erhöhen. ok: {amount}",
        "ru": "Повысьте. ok: {amount}",
    },
    "hint.coyote": {"en": "ok: doubt the bid {bid}", "de": "ok: Gebot {bid} anzweifeln", "ru": "ok: не верю ставке {bid}"},
    "hint.peek": {"en": "ok: see the centre card", "de": "ok: Mittelkarte ansehen", "ru": "ok: посмотреть центр"},
    "hint.coyote_card": {"en": "ok: use the Coyote card", "de": "ok: Coyote-Karte nutzen", "ru": "ok: карта койота"},
    "peek.title": {"en": "Seat {seat} peeks", "de": "Platz {seat} spickt", "ru": "Место {seat} смотрит"},
    "peek.hint": {
        "en": "Look at the centre card secretly, put it back face down, then raise.",
        "de": "Mittelkarte heimlich ansehen, verdeckt zurücklegen, dann erhöhen.",
        "ru": "Тайно посмотрите центральную карту, верните её рубашкой вверх и повысьте.",
    },
    "extra.title": {"en": "Coyote card", "de": "Coyote-Karte", "ru": "Карта койота"},
    "extra.big": {"en": "Seat {seat} draws", "de": "Platz {seat} zieht", "ru": "Место {seat} берёт"},
    "extra.hint": {
        "en": "Take the top card, look at it secretly, lay it face down on the extra slot.",
        "de": "Oberste Karte nehmen, heimlich ansehen, verdeckt aufs Extrafeld legen.",
        "ru": "Возьмите верхнюю карту, тайно посмотрите, положите рубашкой вверх на доп. место.",
    },
    "extra.manual_hint": {
        "en": "Seat {seat}: press ok when it lies there.",
        "de": "Platz {seat}: ok, wenn sie dort liegt.",
        "ru": "Место {seat}: нажмите ok, когда карта на месте.",
    },
    # --- short messages -------------------------------------------------------------
    "msg.not_your_turn": {"en": "Seat {seat}: not your turn", "de": "Platz {seat}: nicht dran", "ru": "Место {seat}: не ваш ход"},
    "msg.undo_hint": {
        "en": "Seat {seat}: minus+plus takes your bid back",
        "de": "Platz {seat}: minus+plus nimmt dein Gebot zurück",
        "ru": "Место {seat}: минус+плюс отменяет ставку",
    },
    "msg.undone": {
        "en": "Seat {seat} took back {amount}",
        "de": "Platz {seat} nimmt {amount} zurück",
        "ru": "Место {seat} отменило {amount}",
    },
    "msg.wait_camera": {
        "en": "Wait: the camera checks the cards",
        "de": "Moment: die Kamera prüft die Karten",
        "ru": "Подождите: камера проверяет карты",
    },
    "msg.guessed": {"en": "Seat {seat} has guessed", "de": "Platz {seat} hat getippt", "ru": "Место {seat} сделало прогноз"},
    "msg.seat_out": {"en": "Seat {seat} is out", "de": "Platz {seat} ist raus", "ru": "Место {seat} выбыло"},
    "msg.not_playing": {"en": "Seat {seat} is not playing", "de": "Platz {seat} spielt nicht mit", "ru": "Место {seat} не играет"},
    "msg.not_a_guesser": {
        "en": "Seat {seat} does not guess now",
        "de": "Platz {seat} tippt diesmal nicht",
        "ru": "Место {seat} сейчас не угадывает",
    },
    "msg.manual_on": {
        "en": "Cards are entered by hand this time",
        "de": "Diesmal werden Karten von Hand eingegeben",
        "ru": "В этот раз карты вводятся вручную",
    },
    # --- guessing (Trickster) ---------------------------------------------------------
    # Titles of screens with several pages leave room for the "2/5" page mark.
    "guess.title": {"en": "Coyote! Who wins?", "de": "Coyote! Wer siegt?", "ru": "Койот! Кто прав?"},
    "guess.big": {"en": "Guess", "de": "Tippen", "ru": "Угадайте"},
    # The guess screen shows one row per page: each clause fits a row.
    "guess.hint": {
        "en": "plus: seat {bidder} (bid), minus: seat {challenger}",
        "de": "plus: Platz {bidder} (Gebot), minus: Platz {challenger}",
        "ru": "плюс: место {bidder} (ставка), минус: место {challenger}",
    },
    "guess.waiting_one": {"en": "Waiting for seat {seat}", "de": "Es fehlt Platz {seat}", "ru": "Ждём место {seat}"},
    "guess.waiting": {"en": "Waiting: seats {seats}", "de": "Offen: Plätze {seats}", "ru": "Ждём места {seats}"},
    # --- reveal and the ? draw --------------------------------------------------------
    "reveal.title": {"en": "Seat {challenger} doubts {bid}", "de": "Platz {challenger} gegen {bid}", "ru": "Место {challenger} против {bid}"},
    "reveal.big": {"en": "Reveal", "de": "Aufdecken", "ru": "Вскрытие"},
    "reveal.centre": {
        "en": "Turn the centre card face up on its slot.",
        "de": "Mittelkarte auf ihrem Feld aufdecken.",
        "ru": "Откройте центральную карту на её месте.",
    },
    "reveal.centre_extra": {
        "en": "Turn the centre card and the extra card face up on their slots.",
        "de": "Mittelkarte und Extrakarte auf ihren Feldern aufdecken.",
        "ru": "Откройте центральную и дополнительную карты на их местах.",
    },
    "draw.title": {"en": "? is in play", "de": "? ist im Spiel", "ru": "? в игре"},
    "draw.big": {"en": "Draw", "de": "Ziehen", "ru": "Добор"},
    "draw.hint": {
        "en": "Lay the top card of the deck face up on the draw slot.",
        "de": "Oberste Karte vom Stapel offen aufs Ziehfeld legen.",
        "ru": "Положите верхнюю карту колоды лицом вверх на место добора.",
    },
    # --- entering cards by hand --------------------------------------------------------
    "entry.centre": {"en": "Centre card?", "de": "Mittelkarte?", "ru": "Центральная карта?"},
    "entry.extra": {"en": "Extra card?", "de": "Extrakarte?", "ru": "Доп. карта?"},
    "entry.seat": {"en": "Seat {seat}'s card?", "de": "Karte von Platz {seat}?", "ru": "Карта места {seat}?"},
    "entry.draw": {"en": "Card drawn for ?", "de": "Gezogen für ?", "ru": "Карта вместо ?"},
    "entry.hint": {
        "en": "-/+ choose, ok confirm (any seat)",
        "de": "-/+ wählen, ok bestätigen (jeder Platz)",
        "ru": "-/+ выбор, ok подтвердить (любое место)",
    },
    "entry.hint_round": {
        "en": "-/+ go round: {last} <> {first}",
        "de": "-/+ geht rundum: {last} <> {first}",
        "ru": "-/+ по кругу: {last} <> {first}",
    },
    # --- correcting a misread card at the verdict ----------------------------------------
    "correct.title": {"en": "Correct which card?", "de": "Welche Karte korrigieren?", "ru": "Какую карту исправить?"},
    "correct.read": {"en": "Read as {card}", "de": "Gelesen: {card}", "ru": "Прочитано: {card}"},
    "correct.item_hint": {
        "en": "-/+ choose, ok: this card (any seat)",
        "de": "-/+ wählen, ok: diese Karte (jeder Platz)",
        "ru": "-/+ выбор, ok: эта карта (любое место)",
    },
    "correct.card_title": {"en": "{item}: which card?", "de": "{item}: welche Karte?", "ru": "{item}: какая карта?"},
    "correct.confirm_title": {"en": "{item}: {card}", "de": "{item}: {card}", "ru": "{item}: {card}"},
    "correct.confirm_big": {"en": "Confirm?", "de": "Bestätigen?", "ru": "Подтвердить?"},
    "correct.confirm_hint": {
        "en": "Seats {seats}: ok at your seat confirms. -/+: change",
        "de": "Plätze {seats}: ok am eigenen Platz bestätigt. -/+: ändern",
        "ru": "Места {seats}: ok на своём месте подтверждает. -/+: изменить",
    },
    "correct.cancel_hint": {"en": "minus+plus: cancel", "de": "minus+plus: abbrechen", "ru": "минус+плюс: отмена"},
    "item.seat": {"en": "Seat {seat}", "de": "Platz {seat}", "ru": "Место {seat}"},
    "item.centre": {"en": "Centre", "de": "Mitte", "ru": "Центр"},
    "item.extra": {"en": "Extra card", "de": "Extrakarte", "ru": "Доп. карта"},
    "item.draw": {"en": "Drawn for ?", "de": "Gezogen für ?", "ru": "Вместо ?"},
    "msg.corrected": {"en": "Corrected: the new verdict", "de": "Korrigiert: das neue Urteil", "ru": "Исправлено: новый вердикт"},
    "msg.correction_cancelled": {"en": "Correction cancelled", "de": "Korrektur abgebrochen", "ru": "Исправление отменено"},
    "msg.same_card": {"en": "That is the card read", "de": "So wurde sie gelesen", "ru": "Так и прочитано"},
    "msg.not_confirming": {
        "en": "Seats {seats} confirm",
        "de": "Plätze {seats} bestätigen",
        "ru": "Подтверждают места {seats}",
    },
    # --- the verdict --------------------------------------------------------------------
    "verdict.title": {"en": "Total {total} · bid {bid}", "de": "Summe {total} · Gebot {bid}", "ru": "Сумма {total} · ставка {bid}"},
    "verdict.winner": {"en": "Seat {seat} wins", "de": "Platz {seat} gewinnt", "ru": "Место {seat} выиграло"},
    "verdict.loser": {"en": "Seat {seat} loses", "de": "Platz {seat} verliert", "ru": "Место {seat} проиграло"},
    "verdict.explain_title": {"en": "Round {round}: why", "de": "Runde {round}: wieso", "ru": "Раунд {round}: итог"},
    "verdict.continue": {"en": "ok: next round", "de": "ok: nächste Runde", "ru": "ok: следующий раунд"},
    "verdict.correct_hint": {
        "en": "Misread? minus+plus, then ok: correct",
        "de": "Falsch gelesen? minus+plus, dann ok",
        "ru": "Ошибка? минус+плюс, затем ok",
    },
    "expl.corrected": {
        "en": "Corrected by seats {seats}: {item} is {card}",
        "de": "Korrigiert von Plätzen {seats}: {item} ist {card}",
        "ru": "Исправлено местами {seats}: {item} — {card}",
    },
    "expl.seat_card": {"en": "Seat {seat}: {card}", "de": "Platz {seat}: {card}", "ru": "Место {seat}: {card}"},
    "expl.centre": {"en": "Centre: {card}", "de": "Mitte: {card}", "ru": "Центр: {card}"},
    "expl.extra": {
        "en": "Coyote card draw (seat {seat}): {card}",
        "de": "Coyote-Karte (Platz {seat}): {card}",
        "ru": "Карта койота (место {seat}): {card}",
    },
    "expl.replacement": {"en": "? counts as {card}", "de": "? zählt als {card}", "ru": "? считается как {card}"},
    "expl.max0_zero": {"en": "Max 0: {card} counts 0", "de": "Max 0: {card} zählt 0", "ru": "Max 0: {card} считается 0"},
    "expl.max0_nothing": {"en": "Max 0: no number to zero", "de": "Max 0: keine Zahl zu nullen", "ru": "Max 0: нечего обнулять"},
    "expl.total": {"en": "Total: {sum} = {total}", "de": "Summe: {sum} = {total}", "ru": "Сумма: {sum} = {total}"},
    "expl.holds": {
        "en": "{total} reaches {bid}: the bidder wins",
        "de": "{total} erreicht {bid}: Bietende gewinnen",
        "ru": "{total} не меньше {bid}: выигрывает ставка",
    },
    "expl.fails": {
        "en": "{total} is below {bid}: the doubter wins",
        "de": "{total} liegt unter {bid}: Zweifelnde gewinnen",
        "ru": "{total} меньше {bid}: выигрывает сомневающийся",
    },
    "expl.challenge": {
        "en": "Seat {challenger} doubted seat {bidder}'s {bid}",
        "de": "Platz {challenger} zweifelte {bid} von Platz {bidder} an",
        "ru": "Место {challenger} не поверило ставке {bid} места {bidder}",
    },
    "expl.guess_right": {"en": "Seat {seat} guessed right", "de": "Platz {seat} tippte richtig", "ru": "Место {seat} угадало"},
    "expl.guess_wrong": {"en": "Seat {seat} guessed wrong", "de": "Platz {seat} tippte falsch", "ru": "Место {seat} не угадало"},
    "eyes.opened": {"en": "Seat {seat} opens an eye", "de": "Platz {seat} öffnet ein Auge", "ru": "Место {seat} открывает глаз"},
    "eyes.closed": {"en": "Seat {seat} closes an eye", "de": "Platz {seat} schließt ein Auge", "ru": "Место {seat} закрывает глаз"},
    "eyes.discarded_closed": {
        "en": "Seat {seat} loses a closed eye",
        "de": "Platz {seat} verliert ein geschlossenes Auge",
        "ru": "Место {seat} теряет закрытый глаз",
    },
    "eyes.discarded_open": {
        "en": "Seat {seat} loses an open eye",
        "de": "Platz {seat} verliert ein offenes Auge",
        "ru": "Место {seat} теряет открытый глаз",
    },
    "eyes.unchanged": {"en": "Seat {seat}: no eye to flip", "de": "Platz {seat}: kein Auge zu drehen", "ru": "Место {seat}: нечего переворачивать"},
    "expl.eliminated": {"en": "Seat {seat} is out", "de": "Platz {seat} scheidet aus", "ru": "Место {seat} выбывает"},
    "expl.next_start": {"en": "Seat {seat} starts next", "de": "Platz {seat} beginnt als Nächstes", "ru": "Место {seat} начинает следующий раунд"},
    "expl.coyote_holder": {
        "en": "Seat {seat} gets the Coyote card",
        "de": "Platz {seat} bekommt die Coyote-Karte",
        "ru": "Место {seat} получает карту койота",
    },
    # --- the record's fingerprint ---------------------------------------------------------
    "fingerprint.title": {"en": "Record fingerprint", "de": "Protokoll-Prüfcode", "ru": "Отпечаток записи"},
    "fingerprint.qr_hint": {"en": "minus+plus: QR code", "de": "minus+plus: QR-Code", "ru": "минус+плюс: QR-код"},
    # --- the web page: its address, its PIN, the hotspot (docs/web.md) --------------------
    "web.hint": {"en": "minus+plus: web page", "de": "minus+plus: Webseite", "ru": "минус+плюс: веб-страница"},
    "web.address_hint": {"en": "ok: PIN", "de": "ok: PIN", "ru": "ok: PIN"},
    "web.pin_title": {"en": "Web page PIN", "de": "PIN der Webseite", "ru": "PIN веб-страницы"},
    "web.pin_hint": {
        "en": "Valid 10 minutes. ok: close",
        "de": "Gilt 10 Minuten. ok: schließen",
        "ru": "Действует 10 минут. ok: закрыть",
    },
    "web.pin_veiled": {"en": "shown on the table", "de": "steht am Tisch", "ru": "показан на столе"},
    "web.wifi_title": {"en": "Wi-Fi", "de": "WLAN", "ru": "Wi-Fi"},
    # --- the end --------------------------------------------------------------------------
    "over.title": {"en": "Game over", "de": "Spielende", "ru": "Игра окончена"},
    "over.big": {"en": "Seat {seat} wins!", "de": "Platz {seat} siegt!", "ru": "Место {seat} победило!"},
    "over.hint": {"en": "ok: new game", "de": "ok: neues Spiel", "ru": "ok: новая игра"},
    # --- the record on a failing disk, damaged or deleted --------------------------------
    "record.unsaved": {"en": "Not saved: try again", "de": "Nicht gespeichert!", "ru": "Не сохранено: снова"},
    "record.damaged.title": {"en": "Record repaired", "de": "Protokoll repariert", "ru": "Запись исправлена"},
    "record.damaged.hint": {
        "en": "From line {line} on it was damaged: set aside in {file}. The game goes on from there.",
        "de": "Ab Zeile {line} beschädigt: in {file} beiseitegelegt. Das Spiel geht von dort weiter.",
        "ru": "Со строки {line} запись повреждена: этот конец сохранён в {file}. Игра продолжается с этого места.",
    },
    "record.unresumable.title": {"en": "Record unreadable", "de": "Protokoll unlesbar", "ru": "Запись не читается"},
    "record.unresumable.hint": {
        "en": "{file} cannot be resumed. The file is kept as it is.",
        "de": "{file} lässt sich nicht fortsetzen. Die Datei bleibt, wie sie ist.",
        "ru": "{file} нельзя продолжить. Файл сохранён как есть.",
    },
    "record.gone.title": {"en": "Record deleted", "de": "Protokoll gelöscht", "ru": "Запись удалена"},
    "record.gone.hint": {
        "en": "{file} was deleted during the game: nothing more can be saved.",
        "de": "{file} wurde im Spiel gelöscht: nichts kann mehr gespeichert werden.",
        "ru": "{file} удалён во время игры: больше ничего не сохранить.",
    },
    "record.not_started.title": {"en": "Cannot save", "de": "Speichern unmöglich", "ru": "Запись невозможна"},
    "record.not_started.hint": {
        "en": "The new game's record cannot be written: storage full or read-only.",
        "de": "Das Protokoll des neuen Spiels lässt sich nicht schreiben: Speicher voll oder schreibgeschützt.",
        "ru": "Запись новой игры не создаётся: память заполнена или защищена от записи.",
    },
    "record.ok_go_on": {"en": "ok: go on", "de": "ok: weiter", "ru": "ok: далее"},
    "record.ok_retry": {"en": "ok: try again", "de": "ok: nochmal", "ru": "ok: ещё раз"},
    # --- refusals from the engine (IllegalAction codes) ---------------------------------
    "refusal.bid_too_low": {"en": "Bid more than {current}", "de": "Mehr als {current} bieten", "ru": "Ставка выше {current}"},
    "refusal.no_bid": {"en": "No bid to doubt yet", "de": "Noch kein Gebot", "ru": "Ещё нет ставки"},
    "refusal.must_raise": {"en": "Now you must raise", "de": "Jetzt musst du erhöhen", "ru": "Теперь нужно повысить"},
    "refusal.cannot_peek": {"en": "No peek now", "de": "Spicken geht jetzt nicht", "ru": "Смотреть сейчас нельзя"},
    "refusal.cannot_use_coyote_card": {
        "en": "Coyote card not usable now",
        "de": "Coyote-Karte geht jetzt nicht",
        "ru": "Карту койота сейчас нельзя",
    },
    "refusal.already_guessed": {"en": "Already guessed", "de": "Schon getippt", "ru": "Прогноз уже сделан"},
    "refusal.nothing_to_undo": {"en": "Nothing to take back", "de": "Nichts zurückzunehmen", "ru": "Нечего отменять"},
    "refusal.undo_after_undo": {
        "en": "Undos do not chain: {amount} stays",
        "de": "Nur einmal zurück: {amount} bleibt",
        "ru": "Двойной отмены нет: {amount} остаётся",
    },
    "refusal.not_your_bid": {"en": "Only the last bidder can take back", "de": "Nur wer zuletzt bot", "ru": "Отменить может только последний"},
    "refusal.duplicate_card": {"en": "A card appears twice", "de": "Eine Karte kommt doppelt vor", "ru": "Карта встречается дважды"},
    "refusal.bad_reveal": {"en": "Those cards do not fit", "de": "Die Karten passen nicht", "ru": "Эти карты не подходят"},
    "refusal.bad_replacement": {"en": "That card is already in play", "de": "Die Karte ist schon im Spiel", "ru": "Эта карта уже в игре"},
    "refusal.nothing_to_correct": {"en": "Nothing to correct now", "de": "Nichts zu korrigieren", "ru": "Нечего исправлять"},
    "refusal.bad_correction": {"en": "That does not fit", "de": "Das passt nicht", "ru": "Так не подходит"},
    "refusal.correction_needs_draw": {
        "en": "? needs a card drawn for it",
        "de": "? braucht eine gezogene Karte",
        "ru": "Для ? нужна вытянутая карта",
    },
    "refusal.other": {"en": "Not possible now", "de": "Jetzt nicht möglich", "ru": "Сейчас нельзя"},
}

#: IllegalAction code -> message key. Codes not listed show "refusal.other".
_REFUSALS: dict[str, str] = {
    "not_your_turn": "msg.not_your_turn",
    "seat_out": "msg.seat_out",
    "no_such_seat": "msg.not_playing",
    "not_a_guesser": "msg.not_a_guesser",
    "bid_too_low": "refusal.bid_too_low",
    "no_bid": "refusal.no_bid",
    "challenge_after_peek": "refusal.must_raise",
    "challenge_after_coyote_card": "refusal.must_raise",
    "cannot_peek": "refusal.cannot_peek",
    "cannot_use_coyote_card": "refusal.cannot_use_coyote_card",
    "already_guessed": "refusal.already_guessed",
    "nothing_to_undo": "refusal.nothing_to_undo",
    "undo_after_undo": "refusal.undo_after_undo",
    "not_your_bid": "refusal.not_your_bid",
    "duplicate_card": "refusal.duplicate_card",
    "bad_reveal": "refusal.bad_reveal",
    "bad_replacement": "refusal.bad_replacement",
    "nothing_to_correct": "refusal.nothing_to_correct",
    "bad_correction": "refusal.bad_correction",
    "correction_needs_draw": "refusal.correction_needs_draw",
}


def refusal_key(code: str) -> str:
    """The message key for an :class:`~coyote_pi.engine.errors.IllegalAction` code."""
    return _REFUSALS.get(code, "refusal.other")


def card_text(card: str) -> str:
    """A card as printed on it: ``"7"``, ``"-10"``, ``"?"``, ``"Max 0"``."""
    return cards.display_name(card)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a catalogue text expects."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Translator:
    """Looks up catalogue texts in one language and fills in their parameters.

    A key missing from the catalogue is a programming error and raises KeyError (the
    completeness test makes sure that never reaches a table).
    """

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r} (choose {', '.join(LANGUAGES)})")
        self.language = language

    def __call__(self, key: str, **params: object) -> str:
        return CATALOGUE[key][self.language].format(**params)

    def refusal(self, code: str, params: dict) -> str:
        """A short message for an engine refusal (its params fill the text, e.g. ``current``)."""
        key = refusal_key(code)
        wanted = placeholders(CATALOGUE[key][self.language])
        return self(key, **{name: params.get(name, "?") for name in wanted})

    def seats(self, seats) -> str:
        """A list of seats for a message: ``"2, 5"``."""
        return ", ".join(str(s) for s in seats)
