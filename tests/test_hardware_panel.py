"""The panel through gpiozero's own MockFactory: drive button pins, read LED and buzzer pins."""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Buzzer, Device, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from hardware import HardwareError
from hardware.panel import (
    TUNES,
    ButtonPress,
    Gestures,
    Light,
    Panel,
    PinMap,
    Press,
    Tune,
    make_pin_factory,
)

FAST = PinMap(long_press_s=0.4, double_press_s=0.25, bounce_s=0.02)


class RecordingPWMPin(MockPWMPin):
    """MockPWMPin that also remembers every frequency set, to hear the tune."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        super().__init__(factory, info)
        self.frequencies: list[float] = []

    def _set_frequency(self, value: float | None) -> None:
        if value is not None:
            self.frequencies.append(value)
        super()._set_frequency(value)


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    save = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=RecordingPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = save


class Presses:
    def __init__(self) -> None:
        self.q: queue.Queue[ButtonPress] = queue.Queue()

    def __call__(self, press: ButtonPress) -> None:
        self.q.put(press)

    def next(self, timeout: float = 3.0) -> ButtonPress:
        return self.q.get(timeout=timeout)

    def none_left(self, panel: Panel) -> bool:
        """No press beyond those taken, once the panel has reported every press it will."""
        assert panel.wait_presses()
        return self.q.empty()


def tap(pin: object) -> None:
    """A human press: down for longer than the bounce time, then up.

    The sleep is the length of the press (MockPin calls the panel back at once, in this
    thread), not a wait for the panel.
    """
    pin.drive_low()  # type: ignore[attr-defined]
    time.sleep(0.05)
    pin.drive_high()  # type: ignore[attr-defined]


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll ``check`` until it holds, up to ``timeout``: wait on the condition, not a guess."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def states(pin: object) -> list[object]:
    return [s.state for s in pin.states]  # type: ignore[attr-defined]


# --- buttons ---------------------------------------------------------------------------------


def test_short_press_is_next_once_the_double_press_window_passed(factory: MockFactory) -> None:
    presses = Presses()
    with Panel(FAST, presses) as panel:
        tap(factory.pin(FAST.buttons[1]))
        assert presses.next() == ButtonPress(1, Press.NEXT)
        assert presses.none_left(panel)
        assert panel.buttons[1].is_pressed is False


def test_long_press_is_a_claim_while_still_held(factory: MockFactory) -> None:
    presses = Presses()
    with Panel(FAST, presses) as panel:
        pin = factory.pin(FAST.buttons[0])
        pin.drive_low()
        assert presses.next() == ButtonPress(0, Press.CLAIM)  # before the release
        pin.drive_high()
        assert presses.none_left(panel)


def test_double_press_is_quit_and_not_two_nexts(factory: MockFactory) -> None:
    presses = Presses()
    with Panel(FAST, presses) as panel:
        pin = factory.pin(FAST.buttons[3])
        tap(pin)
        time.sleep(0.03)  # the gap between the presses: past the bounce time, inside the window
        tap(pin)
        assert presses.next() == ButtonPress(3, Press.QUIT)
        assert presses.none_left(panel)


def test_contact_bounce_is_one_press(factory: MockFactory) -> None:
    presses = Presses()
    # a generous bounce time, so that a loaded machine cannot stretch the bursts beyond it
    pins = PinMap(long_press_s=0.6, double_press_s=0.12, bounce_s=0.15)
    with Panel(pins, presses) as panel:
        pin = factory.pin(pins.buttons[2])
        pin.drive_low()
        for _ in range(3):  # a bouncing contact: edges microseconds apart
            pin.drive_high()
            pin.drive_low()
        time.sleep(0.3)  # the press itself: longer than the bounce time, shorter than a hold
        for _ in range(3):  # and bouncing again on the way up, ending up
            pin.drive_high()
            pin.drive_low()
        pin.drive_high()
        assert presses.next() == ButtonPress(2, Press.NEXT)
        assert presses.none_left(panel)


def test_buttons_of_different_seats_do_not_mix(factory: MockFactory) -> None:
    presses = Presses()
    with Panel(FAST, presses):
        a, b = factory.pin(FAST.buttons[0]), factory.pin(FAST.buttons[1])
        a.drive_low()
        b.drive_low()
        time.sleep(0.05)  # the length of both presses
        a.drive_high()
        b.drive_high()
        got = {presses.next(), presses.next()}
    assert got == {ButtonPress(0, Press.NEXT), ButtonPress(1, Press.NEXT)}


# --- gestures without waiting ------------------------------------------------------------------


def test_gestures_timeline() -> None:
    g = Gestures(long_s=1.0, double_s=0.4, bounce_s=0.03)
    assert g.pressed(0.0) is None and g.released(0.2) is None
    assert g.due(0.5) is None and g.due(0.7) is Press.NEXT and g.due(5.0) is None
    # double
    g.pressed(10.0), g.released(10.1), g.pressed(10.3)
    assert g.released(10.4) is Press.QUIT and g.due(20.0) is None
    # long: reported at the hold, not again at the release
    g.pressed(30.0)
    assert g.held(30.5) is None and g.held(31.0) is Press.CLAIM and g.released(33.0) is None
    # fumbled pair: the second press held = a claim, the first press dropped
    g.pressed(40.0), g.released(40.1), g.pressed(40.3)
    assert g.held(41.3) is Press.CLAIM and g.released(41.5) is None and g.due(50.0) is None
    # a press after the window first reports the pending Next
    g.pressed(60.0), g.released(60.1)
    assert g.pressed(61.0) is Press.NEXT and g.released(61.1) is None
    # bounce: edges within 30 ms of the last accepted edge are ignored
    h = Gestures(1.0, 0.4, 0.03)
    h.pressed(0.0)
    assert h.released(0.01) is None and h.pressed(0.02) is None
    assert h.released(0.2) is None and h.due(0.7) is Press.NEXT


# --- LEDs ------------------------------------------------------------------------------------


def test_turn_lights_only_the_player_on_turn(factory: MockFactory) -> None:
    with Panel(FAST, Presses()) as panel:
        panel.show_turn(1)
        panel.show_turn(2)
        leds = [factory.pin(p) for p in FAST.leds]
        assert [led.state for led in leds] == [False, False, True, False]
        leds[1].assert_states([False, True, False])  # gpiozero's own check…
        assert states(leds[1]) == [False, True, False]  # …and nothing more happened
        assert states(leds[2]) == [False, True]
        assert states(leds[0]) == [False]


def test_claim_flashes_then_the_turn_light_returns(factory: MockFactory) -> None:
    with Panel(FAST, Presses()) as panel:
        panel.show_turn(0)
        panel.flash_claim(0, valid=False)
        assert panel.wait_idle()
        led = factory.pin(FAST.leds[0])
        assert states(led) == [False, True, False] + [True, False] * 3 + [True]
        panel.flash_claim(0, valid=True)
        assert panel.wait_idle()
        assert states(led)[-14:] == [False] + [True, False] * 6 + [True]


def test_winner_blinks_and_no_winner_blinks_all_then_dark(factory: MockFactory) -> None:
    with Panel(FAST, Presses()) as panel:
        panel.show_turn(3)
        panel.show_winner(1)
        winner, other = factory.pin(FAST.leds[1]), factory.pin(FAST.leds[3])
        assert eventually(lambda: len(states(winner)) >= 3)  # on, then off again
        assert states(winner)[:3] == [False, True, False]  # it blinks, on and off
        assert other.state is False
        panel.show_winner(None)
        assert panel.wait_idle()
        assert all(factory.pin(p).state is False for p in FAST.leds)
        assert states(factory.pin(FAST.leds[0])) == [False] + [True, False] * 3


def test_status_led_patterns(factory: MockFactory) -> None:
    with Panel(FAST, Presses()) as panel:
        status = factory.pin(FAST.status_led)
        panel.show_status(Light.OK)
        assert status.state is True
        panel.show_status(Light.CAMERA_LOST)
        assert eventually(lambda: len(states(status)) >= 3)  # the first beat has ended
        assert states(status)[:3] == [False, True, False]  # steady on, then the heartbeat
        panel.show_status(Light.OK)
        assert status.state is True and panel.status is Light.OK


# --- buzzer ----------------------------------------------------------------------------------


def test_plain_buzzer_beeps_the_rhythm_of_a_tune(factory: MockFactory) -> None:
    with Panel(FAST, Presses()) as panel:
        assert isinstance(panel.buzzer, Buzzer) and not panel.tonal
        panel.play(Tune.CLAIM_INVALID)
        assert panel.wait_idle()
        notes = sum(1 for n, _ in TUNES[Tune.CLAIM_INVALID] if n is not None)
        buzzer = factory.pin(FAST.buzzer)
        buzzer.assert_states([False] + [True, False] * notes)
        assert states(buzzer) == [False] + [True, False] * notes


def test_tonal_buzzer_plays_the_notes_on_a_pwm_pin(pwm_factory: MockFactory) -> None:
    with Panel(FAST, Presses()) as panel:
        assert isinstance(panel.buzzer, TonalBuzzer) and panel.tonal
        pwm_factory.pin(FAST.buzzer).frequencies.clear()  # set-up's own PWM frequency
        panel.play(Tune.CLAIM_VALID)
        panel.play(Tune.TURN)
        assert panel.wait_idle()
        pin = pwm_factory.pin(FAST.buzzer)
        wanted = [n for t in (Tune.CLAIM_VALID, Tune.TURN) for n, _ in TUNES[t] if n]
        assert pin.frequencies == pytest.approx([Tone(n).frequency for n in wanted])
        assert pin.state == 0  # silent afterwards


def test_quiet_buzzer_stays_silent(factory: MockFactory) -> None:
    lines: list[str] = []
    pins = PinMap(long_press_s=0.25, double_press_s=0.12, quiet=True)
    with Panel(pins, Presses(), echo=lines.append) as panel:
        panel.play(Tune.ALARM)
        assert panel.wait_idle()
        assert states(factory.pin(pins.buzzer)) == [False]
    assert any("alarm" in line and "quiet" in line for line in lines)


def test_tonal_required_on_a_pin_without_pwm_is_an_error(factory: MockFactory) -> None:
    with pytest.raises(HardwareError, match="PWM"):
        Panel(PinMap(tonal="yes"), Presses())
    Panel(PinMap(), Presses()).close()  # every pin was released by the failed attempt


# --- pin map, lifecycle, console ------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"buttons": (5,), "leds": (17,)}, "2–4 buttons"),
        ({"buttons": (5, 6, 13, 19, 26), "leds": (17, 27, 22, 23, 12)}, "2–4 buttons"),
        ({"leds": (17, 27, 22)}, "one LED per button"),
        ({"status_led": 5}, "GPIO5 is used twice"),
        ({"buzzer": 40}, "GPIO40"),
        ({"tonal": "maybe"}, "tonal"),
    ],
)
def test_bad_pin_maps_are_refused(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(HardwareError, match=needle):
        PinMap(**kwargs)  # type: ignore[arg-type]


def test_pin_map_from_settings() -> None:
    pins = PinMap.from_config({"buttons": [5, 6], "leds": [17, 27], "status_led": -1,
                               "buzzer": -1, "long_press_s": 1.5})
    assert pins.buttons == (5, 6) and pins.status_led is None and pins.buzzer is None
    assert pins.long_press_s == 1.5


def test_two_seats_without_status_led_or_buzzer(factory: MockFactory) -> None:
    pins = PinMap(buttons=(5, 6), leds=(17, 27), status_led=None, buzzer=None)
    with Panel(pins, Presses()) as panel:
        panel.show_status(Light.CAMERA_LOST)
        panel.play(Tune.ALARM)
        panel.show_turn(1)
        assert panel.wait_idle()
        assert factory.pin(27).state is True


def test_close_is_idempotent_and_frees_the_pins(factory: MockFactory) -> None:
    panel = Panel(FAST, Presses())
    panel.show_turn(0)
    panel.close()
    panel.close()
    assert factory.pin(FAST.leds[0]).state is False
    Panel(FAST, Presses()).close()


def test_echo_tells_the_console_what_the_table_shows(factory: MockFactory) -> None:
    lines: list[str] = []
    presses = Presses()
    with Panel(FAST, presses, echo=lines.append, names=["Ana", "Ben"]) as panel:
        panel.show_turn(1)
        tap(factory.pin(FAST.buttons[1]))
        presses.next()
    assert "LED 2 (Ben) on: their turn" in lines
    assert "button 2 (Ben): next" in lines


def test_mock_pin_factory_by_name() -> None:
    f = make_pin_factory("mock")
    assert isinstance(f, MockFactory)
    with pytest.raises(HardwareError, match="unknown pin factory"):
        make_pin_factory("gpio-by-carrier-pigeon")


def test_flashes_and_patterns_racing_on_one_led_never_drive_it_from_two_threads(
    factory: MockFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lost turn's flash, straight away the end (no winner: all flash; a team: blink), then
    the table closes under the flashes: gpiozero never sees two threads on one LED."""
    import threading

    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    caplog.set_level(logging.DEBUG, logger="hardware")  # the panel and its parts
    fast = PinMap(buttons=(5, 6), leds=(17, 27), status_led=None, buzzer=None)
    for round_ in range(24):
        panel = Panel(fast, Presses())
        panel.show_turn(0)
        panel.flash_claim(0, valid=False)  # the seat's signal blink
        time.sleep(0.001 * (round_ % 4))
        if round_ % 2:
            panel.show_winners([])  # nobody won: every LED flashes over the signal's
        else:
            panel.show_winners([0, 1])  # the team won: their LEDs blink
        time.sleep(0.001 * (round_ % 3))
        panel.flash_claim(0, valid=True)
        if round_ in (0, 12):
            assert panel.wait_idle()
            led = factory.pin(17)
            # after the flash the winners' blink is the LED's pattern again: on, then off by itself
            flashed = len(states(led))  # the flash is over (wait_idle): what follows is the blink's
            assert eventually(lambda: False in states(led)[flashed:])
            assert True in states(led)[-3:] and False in states(led)[-3:]
        panel.close()  # the table closes while flashes may still run
        factory.reset()
    assert raised == []
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


def test_default_pin_factory_follows_gpiozeros_environment_variable(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "Mock")  # gpiozero's names are case-insensitive
    assert isinstance(make_pin_factory(""), MockFactory)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "gpio-by-carrier-pigeon")
    with caplog.at_level(logging.WARNING, logger="hardware"):
        assert isinstance(make_pin_factory(""), MockFactory)  # unknown: the table still runs
    assert "not an installed pin factory" in caplog.text
