"""A panel drawn again from the same frame keeps its elements (static/js/dom.js `unchanged`): the page's
socket sends the state the page already shows as its first frame, just as a player presses "Sit here",
and a press whose mouse-down and mouse-up land on two copies of a button is no click. (CI once saw a
browser test's "Sit in seat 2" lost so, on a busy machine.) The real module, in Chromium."""

from __future__ import annotations


def test_the_waiting_panel_keeps_its_buttons_when_the_same_frame_comes_again(new_page):
    page = new_page()
    page.goto("/play/")
    result = page.evaluate(
        """async () => {
          const { renderWaiting } = await import('/static/js/waiting.js');
          const root = document.createElement('div');
          const felt = document.createElement('div');
          document.body.append(root, felt);
          const seat = (index, name) => ({ index, empty: !name, invited: null, name: name || '', user_id: name ? 1 : null, bot: null });
          const frame = (status, second) => ({ seat: null, table: { status, host_id: 1, rated: true, unrated: [], private: false,
                                                                  seats: [seat(0, 'alice'), seat(1, second)] } });
          const config = { joinUrl: '/t/1/join/', csrf: 'x', invite: '', signedIn: 'true' };
          const button = () => root.querySelector('.waiting__seat button');
          renderWaiting(root, felt, frame('open', null), config, () => {});
          const first = button();
          renderWaiting(root, felt, JSON.parse(JSON.stringify(frame('open', null))), config, () => {});
          const again = button();
          renderWaiting(root, felt, frame('open', 'bob'), config, () => {});
          const taken = button();
          const names = [...root.querySelectorAll('.waiting__name')].map((node) => node.textContent);
          renderWaiting(root, felt, frame('playing', 'bob'), config, () => {});
          const started = root.childElementCount;
          renderWaiting(root, felt, frame('open', null), config, () => {});
          return { first: first !== null, same: first === again, taken: taken === null, names, started,
                   back: button() !== null && button() !== first };
        }"""
    )
    assert result["first"], "an empty seat offers its button"
    assert result["same"], "the same frame again must keep the very button a player may be pressing"
    assert result["taken"] and result["names"] == ["alice", "bob"], "a changed frame is drawn anew"
    assert result["started"] == 0, "once the match starts the panel is empty"
    assert result["back"], "and drawn again when the table waits once more"


def test_the_seat_cards_keep_their_buttons_when_nothing_on_them_changed(new_page):
    page = new_page()
    page.goto("/play/")
    result = page.evaluate(
        """async () => {
          const { renderSeats } = await import('/static/js/seats.js');
          const container = document.createElement('div');
          document.body.append(container);
          const seat = (index, name, user) => ({ index, empty: false, invited: null, name, user_id: user, bot: null });
          const frame = (turn, second = 'bob', user = 2) => ({ seat: 0, table: { status: 'playing', seat_count: 2, match: null,
              seats: [seat(0, 'alice', 1), seat(1, second, user)] },
              view: { over: false, turn, players: [{ tiles: 14, left: false }, { tiles: 12, left: false }] } });
          let painted = 0;  // as timer.js's ring: painted with the time left as it is drawn
          const clock = { ring: () => {
            const ring = document.createElement('span');
            ring.dataset.timer = 'ring';
            ring.setAttribute('data-left', String(painted++));
            return ring;
          } };
          const actions = (info) => {
            const button = document.createElement('button');
            button.textContent = 'Report';
            return button;
          };
          const draw = (f) => renderSeats(container, { frame: f, clock, badges: () => [], actions });
          const button = () => container.querySelector('button');
          draw(frame(0));
          const first = button();
          draw(frame(0));  // a presence frame that changes nothing, or the same state again
          const same = button() === first;
          draw(frame(1));  // their turn now
          const redrawn = button() !== first;
          const before = button();
          draw(frame(1));  // the same turn a moment later: only its clock moved
          const clockOnly = button() === before;
          draw(frame(1, 'bob', 3));  // another user of the same name: its buttons act on the new user
          return { same, redrawn, clockOnly, newUser: button() !== before };
        }"""
    )
    assert result["same"], "an unchanged card keeps the button a player may be pressing"
    assert result["redrawn"], "a changed card is drawn anew"
    assert result["clockOnly"], "a clock painted a moment later is no change to the card"
    assert result["newUser"], "the key holds the seats' users, whose ids the buttons act on"
