"""The page's words, in the table's language (English, German, Russian), in one place.

The page speaks the table's language (``live.json`` says which). Its own texts are in
:data:`PAGE`; anything the OLED also says (the verdict's explanation, "Seat 3 wins",
card names, variants) comes from the table's catalogue, :mod:`coyote_pi.table.i18n`,
so the page and the table never word the same thing differently::

    >>> t = Texts("de")
    >>> t("nav.history"), t("verdict.winner", seat=2)
    ('Verlauf', 'Platz 2 gewinnt')
"""

from __future__ import annotations

from coyote_pi.table.i18n import Translator

PAGE: dict[str, dict[str, str]] = {
    "nav.table": {"en": "Table", "de": "Tisch", "ru": "Стол"},
    "nav.history": {"en": "History", "de": "Verlauf", "ru": "История"},
    "nav.records": {"en": "Records", "de": "Protokolle", "ru": "Записи"},
    "nav.setup": {"en": "Setup", "de": "Einrichten", "ru": "Настройка"},
    "table.not_running": {"en": "The table is not running.", "de": "Der Tisch läuft nicht.",
                          "ru": "Стол не запущен."},
    "table.waiting": {"en": "Waiting for the table…", "de": "Warte auf den Tisch…", "ru": "Ждём стол…"},
    "table.no_game": {"en": "No game yet.", "de": "Noch kein Spiel.", "ru": "Игры ещё нет."},
    "table.round": {"en": "Round {round}", "de": "Runde {round}", "ru": "Раунд {round}"},
    "table.turn": {"en": "Seat {seat}'s turn", "de": "Platz {seat} ist dran", "ru": "Ход места {seat}"},
    "table.bids": {"en": "Bids this round", "de": "Gebote dieser Runde", "ru": "Ставки раунда"},
    "table.no_bids": {"en": "No bid yet.", "de": "Noch kein Gebot.", "ru": "Ставок ещё нет."},
    "table.bid": {"en": "Seat {seat} bids {amount}", "de": "Platz {seat} bietet {amount}",
                  "ru": "Место {seat}: ставка {amount}"},
    "table.challenged": {"en": "Seat {seat}: Coyote!", "de": "Platz {seat}: Coyote!", "ru": "Место {seat}: Койот!"},
    "table.coyote_holder": {"en": "Coyote card: seat {seat}", "de": "Coyote-Karte: Platz {seat}",
                            "ru": "Карта койота: место {seat}"},
    "table.peeked": {"en": "peeked", "de": "hat gespickt", "ru": "подсмотрел"},
    "table.out": {"en": "out", "de": "raus", "ru": "выбыл"},
    "table.seat": {"en": "Seat {seat}", "de": "Platz {seat}", "ru": "Место {seat}"},
    "table.eyes": {"en": "{open} open, {closed} closed", "de": "{open} offen, {closed} zu",
                   "ru": "открыто {open}, закрыто {closed}"},
    "table.oled": {"en": "On the table's screen", "de": "Auf dem Tischdisplay", "ru": "На экране стола"},
    "table.verdict": {"en": "Verdict of round {round}", "de": "Urteil der Runde {round}",
                      "ru": "Вердикт раунда {round}"},
    "table.game_so_far": {"en": "The game so far", "de": "Das Spiel bisher", "ru": "Игра до сих пор"},
    "table.log": {"en": "Play by play", "de": "Spielverlauf", "ru": "Ход игры"},
    "table.camera": {"en": "Camera: {state}", "de": "Kamera: {state}", "ru": "Камера: {state}"},
    # The camera's states as live.json names them.
    "camera.ok": {"en": "ok", "de": "ok", "ru": "в порядке"},
    "camera.restarting": {"en": "restarting", "de": "startet neu", "ru": "перезапуск"},
    "camera.manual": {"en": "cards by hand", "de": "Karten per Hand", "ru": "карты вручную"},
    "table.live": {"en": "live", "de": "live", "ru": "в эфире"},
    "table.offline": {"en": "reconnecting…", "de": "verbinde neu…", "ru": "переподключение…"},
    "table.round_line": {"en": "Round {round}: seat {challenger} doubted seat {bidder}'s {bid}, total {total}: seat {winner} wins",
                         "de": "Runde {round}: Platz {challenger} zweifelte {bid} von Platz {bidder} an, Summe {total}: Platz {winner} gewinnt",
                         "ru": "Раунд {round}: место {challenger} не поверило ставке {bid} места {bidder}, сумма {total}: выиграло место {winner}"},
    "table.photo": {"en": "The reveal, as the camera saw it", "de": "Das Aufdecken, wie die Kamera es sah",
                    "ru": "Вскрытие глазами камеры"},
    "history.title": {"en": "Games kept on the device", "de": "Gespeicherte Spiele", "ru": "Сохранённые игры"},
    "history.none": {"en": "No game recorded yet.", "de": "Noch kein Spiel aufgezeichnet.",
                     "ru": "Записанных игр пока нет."},
    "history.game": {"en": "{game}: {players} players, {variant}", "de": "{game}: {players} Spieler, {variant}",
                     "ru": "{game}: игроков {players}, {variant}"},
    "history.finished": {"en": "seat {seat} won", "de": "Platz {seat} gewann", "ru": "победило место {seat}"},
    "history.in_progress": {"en": "in progress", "de": "läuft", "ru": "идёт"},
    "history.rounds": {"en": "{rounds} rounds", "de": "{rounds} Runden", "ru": "раундов: {rounds}"},
    "history.photos_gone": {"en": "The photos of this round are no longer kept: the device keeps those of its newest games only.",
                            "de": "Die Fotos dieser Runde sind nicht mehr gespeichert: das Gerät behält nur die der neuesten Spiele.",
                            "ru": "Фото этого раунда больше не хранятся: устройство хранит фото только последних игр."},
    "history.unreadable": {"en": "This record does not replay: {error}", "de": "Dieses Protokoll ist fehlerhaft: {error}",
                           "ru": "Запись не проверяется: {error}"},
    "history.open_round": {"en": "A round is in progress: it appears here once it is over.",
                           "de": "Eine Runde läuft: sie erscheint hier, wenn sie vorbei ist.",
                           "ru": "Идёт раунд: он появится здесь после окончания."},
    "history.line": {"en": "Line", "de": "Zeile", "ru": "Строка"},
    "history.what": {"en": "What happened", "de": "Was geschah", "ru": "Что произошло"},
    "history.odds": {"en": "Odds it held", "de": "Chance", "ru": "Шанс"},
    "history.odds_note": {
        "en": "Odds: the chance the bid held, from what its bidder could see at that moment.",
        "de": "Chance: wie wahrscheinlich das Gebot hielt, nach dem, was die bietende Person da sehen konnte.",
        "ru": "Шанс: вероятность, что ставка верна, по тому, что видел игрок в тот момент.",
    },
    "step.deal": {"en": "Cards dealt", "de": "Karten gegeben", "ru": "Карты розданы"},
    "step.coyote_card": {"en": "Seat {seat} uses the Coyote card", "de": "Platz {seat} nutzt die Coyote-Karte",
                         "ru": "Место {seat} берёт карту койота"},
    "step.guess": {"en": "Seat {seat} guesses seat {winner} wins", "de": "Platz {seat} tippt auf Platz {winner}",
                   "ru": "Место {seat} ставит на место {winner}"},
    "step.reveal": {"en": "Cards revealed", "de": "Karten aufgedeckt", "ru": "Карты открыты"},
    "step.undo": {"en": "Seat {seat} takes back its bid", "de": "Platz {seat} nimmt sein Gebot zurück",
                  "ru": "Место {seat} отменяет ставку"},
    "history.undone": {"en": "taken back", "de": "zurückgenommen", "ru": "отменено"},
    "history.cards_read": {"en": "Cards as read", "de": "Karten wie gelesen", "ru": "Карты, как прочитаны"},
    "history.corrected": {"en": "Corrected", "de": "Korrigiert", "ru": "Исправлено"},
    "history.prev": {"en": "Previous round", "de": "Vorige Runde", "ru": "Предыдущий раунд"},
    "history.next": {"en": "Next round", "de": "Nächste Runde", "ru": "Следующий раунд"},
    "history.link": {"en": "Link to this round", "de": "Link zu dieser Runde", "ru": "Ссылка на этот раунд"},
    "records.title": {"en": "Records", "de": "Protokolle", "ru": "Записи"},
    "records.fingerprint": {"en": "Fingerprint", "de": "Prüfcode", "ru": "Отпечаток"},
    "records.download": {"en": "Record and photos (zip)", "de": "Protokoll und Fotos (zip)",
                         "ru": "Запись и фото (zip)"},
    "records.transcript": {"en": "Printable transcript", "de": "Druckbares Protokoll", "ru": "Текст для печати"},
    "records.check": {
        "en": "Check a downloaded record against the fingerprint the table showed:",
        "de": "Ein heruntergeladenes Protokoll gegen den Prüfcode vom Tisch prüfen:",
        "ru": "Проверьте скачанную запись по отпечатку, показанному столом:",
    },
    "records.locked": {"en": "Downloads of this game wait until the round is over.",
                       "de": "Downloads dieses Spiels warten bis zum Ende der Runde.",
                       "ru": "Скачивание этой игры — после окончания раунда."},
    "login.title": {"en": "PIN", "de": "PIN", "ru": "PIN"},
    "login.explain": {
        "en": "Setup and downloads need the PIN: press minus and plus together on seat 1 and the table's screen shows it.",
        "de": "Einrichten und Downloads brauchen die PIN: an Platz 1 Minus und Plus zusammen drücken, das Tischdisplay zeigt sie.",
        "ru": "Для настройки и скачивания нужен PIN: нажмите минус и плюс вместе на месте 1, экран стола покажет его.",
    },
    "login.submit": {"en": "Enter", "de": "Weiter", "ru": "Войти"},
    "login.wrong": {"en": "Wrong or expired PIN.", "de": "PIN falsch oder abgelaufen.",
                    "ru": "PIN неверный или устарел."},
    "login.slow_down": {"en": "Too many wrong PINs: wait {seconds} s.", "de": "Zu viele falsche PINs: {seconds} s warten.",
                        "ru": "Слишком много неверных PIN: подождите {seconds} с."},
    "login.logout": {"en": "Log out", "de": "Abmelden", "ru": "Выйти"},
    "login.no_table": {"en": "The table is not running, so no PIN is valid: start it, then ask its screen for one.",
                       "de": "Der Tisch läuft nicht, also gilt keine PIN: ihn starten, dann sein Display nach einer fragen.",
                       "ru": "Стол не запущен, поэтому PIN недействителен: запустите его и запросите PIN на экране."},
    "login.session_ended": {
        "en": "Your session ended (the page restarted, or it sat idle): enter the PIN again. The settings you "
              "typed are kept.",
        "de": "Die Sitzung ist abgelaufen (die Seite startete neu oder blieb liegen): PIN erneut eingeben. Die "
              "eingegebenen Einstellungen bleiben erhalten.",
        "ru": "Сеанс закончился (страница перезапустилась или простаивала): введите PIN снова. Введённые "
              "настройки сохранены.",
    },
    "login.setup_lost": {"en": "The connection to the setup is lost: reload the page (it asks for the PIN if the "
                               "session ended).",
                         "de": "Die Verbindung zum Einrichten ist weg: Seite neu laden (sie fragt nach der PIN, "
                               "falls die Sitzung abgelaufen ist).",
                         "ru": "Связь с настройкой потеряна: перезагрузите страницу (она спросит PIN, если сеанс "
                               "закончился)."},
    "refused.round_open": {"en": "Not while a round is open: wait for its verdict.",
                           "de": "Nicht während einer Runde: auf das Urteil warten.",
                           "ru": "Не во время раунда: дождитесь вердикта."},
    "refused.game_on": {"en": "Setup only between games.", "de": "Einrichten nur zwischen Spielen.",
                        "ru": "Настройка только между играми."},
    "refused.too_large": {"en": "Refused: that is more than any form of this page sends.",
                          "de": "Abgelehnt: das ist mehr, als ein Formular dieser Seite sendet.",
                          "ru": "Отказано: это больше, чем отправляет любая форма этой страницы."},
    "missing.game": {"en": "No such game on this device.", "de": "Kein solches Spiel auf diesem Gerät.",
                     "ru": "Такой игры на устройстве нет."},
    "missing.round": {"en": "No such round, or it is not over yet.", "de": "Keine solche Runde, oder sie läuft noch.",
                      "ru": "Такого раунда нет, или он ещё не закончен."},
    "refused.cross_site": {"en": "Refused: the request did not come from this page.",
                           "de": "Abgelehnt: die Anfrage kam nicht von dieser Seite.",
                           "ru": "Отказано: запрос пришёл не с этой страницы."},
    "device.camera": {"en": "Camera", "de": "Kamera", "ru": "Камера"},
    "device.no_preview": {"en": "No picture yet: the table sends one every few seconds while this page is open.",
                         "de": "Noch kein Bild: der Tisch schickt alle paar Sekunden eins, solange diese Seite offen ist.",
                         "ru": "Кадра пока нет: стол присылает его каждые несколько секунд, пока страница открыта."},
    "device.stands": {"en": "Stands", "de": "Ständer", "ru": "Подставки"},
    "device.settings": {"en": "Settings", "de": "Einstellungen", "ru": "Настройки"},
    "device.settings_note": {
        "en": "Applied when the next game starts, and kept when the table restarts. Players, variant, language "
              "and pins are set at the table.",
        "de": "Gilt ab dem nächsten Spiel und bleibt nach einem Neustart des Tisches. Spieler, Variante, Sprache "
              "und Pins werden am Tisch eingestellt.",
        "ru": "Применяется со следующей игры и сохраняется после перезапуска стола. Игроки, вариант, язык и "
              "выводы задаются у стола.",
    },
    "device.from_page": {"en": "set on this page; the configuration file says {value}",
                         "de": "auf dieser Seite gesetzt; die Konfigurationsdatei sagt {value}",
                         "ru": "задано на этой странице; в файле конфигурации: {value}"},
    "device.not_kept": {"en": "The table took the last proposal, but: {error}",
                        "de": "Der Tisch hat den Vorschlag übernommen, aber: {error}",
                        "ru": "Стол принял предложение, но: {error}"},
    "device.save": {"en": "Propose to the table", "de": "Dem Tisch vorschlagen", "ru": "Предложить столу"},
    "device.saved": {"en": "Sent: the table applies it at the next game.", "de": "Gesendet: gilt ab dem nächsten Spiel.",
                    "ru": "Отправлено: применится со следующей игры."},
    "device.unchanged": {"en": "Nothing sent: every value is the one in force (an empty field keeps its value).",
                         "de": "Nichts gesendet: jeder Wert gilt schon (ein leeres Feld behält seinen Wert).",
                         "ru": "Ничего не отправлено: все значения уже действуют (пустое поле сохраняет значение)."},
    "device.carried": {"en": "Your settings are back in the form: propose them again.",
                       "de": "Ihre Einstellungen stehen wieder im Formular: erneut vorschlagen.",
                       "ru": "Ваши настройки снова в форме: предложите их ещё раз."},
    "device.pending": {"en": "A proposal waits for the table.", "de": "Ein Vorschlag wartet auf den Tisch.",
                      "ru": "Предложение ждёт стол."},
    "device.refused": {"en": "The table refused the last proposal: {error}", "de": "Der Tisch lehnte ab: {error}",
                      "ru": "Стол отклонил предложение: {error}"},
    "device.doctor": {"en": "Checks", "de": "Prüfungen", "ru": "Проверки"},
    "device.run_doctor": {"en": "Run the checks", "de": "Prüfen", "ru": "Проверить"},
    "device.no_doctor": {"en": "No checks run yet.", "de": "Noch nicht geprüft.", "ru": "Проверок ещё не было."},
    "device.log": {"en": "The device's log", "de": "Protokoll des Geräts", "ru": "Журнал устройства"},
    "device.no_log": {"en": "The device's log is not available here (no journalctl).",
                     "de": "Das Geräteprotokoll ist hier nicht verfügbar (kein journalctl).",
                     "ru": "Журнал устройства здесь недоступен (нет journalctl)."},
}


class Texts:
    """The page's texts in one language: its own keys first, then the table's catalogue."""

    def __init__(self, language: str) -> None:
        self.table = Translator(language if language in ("en", "de", "ru") else "en")
        self.language = self.table.language

    def __call__(self, key: str, **params: object) -> str:
        if key in PAGE:
            return PAGE[key][self.language].format(**params)
        return self.table(key, **params)
