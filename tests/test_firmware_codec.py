"""The host's codec alone: framing round trips, garbage counting, payload checks."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.firmware_bridge import protocol as p

packets = st.builds(p.Packet, st.integers(0, 255), st.integers(0, 255),
                    st.binary(max_size=p.MAX_PAYLOAD))


@given(st.lists(packets, min_size=1, max_size=5), st.data())
def test_packets_survive_framing_however_the_bytes_are_split(sent, data):
    wire = b"".join(packet.encode() for packet in sent)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    decoder = p.Decoder()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        got += decoder.feed(wire[start:end])
    assert (got, decoder.garbage) == (sent, 0)
    assert all(b"\x00" not in packet.encode()[:-1] for packet in sent)


def test_known_encoding_crc_and_cobs():
    assert p.crc16(b"123456789") == 0x29B1                 # CRC-16/CCITT-FALSE check value
    assert p.Packet(5, p.HELLO, b"\x01").encode() == bytes.fromhex("060501017c0400")


def test_garbage_is_counted_and_the_next_packet_still_decodes():
    good = p.Packet(9, p.ACK).encode()
    corrupt = bytearray(good)
    corrupt[2] ^= 1
    decoder = p.Decoder()
    stream = bytes(corrupt) + b"\x07\x01\x00" + bytes(range(1, 200)) + b"\x00\x00" + good
    assert list(decoder.feed(stream)) == [p.Packet(9, p.ACK)]
    assert decoder.garbage == 3                              # bad CRC, bad COBS, over size


def test_payload_builders_refuse_what_the_firmware_cannot_show():
    assert p.leds_payload([(1, 2, 3), (4, 5, 6)]) == bytes([1, 2, 3, 4, 5, 6])
    assert p.servo_payload(45.25) == (452).to_bytes(2, "little")
    with pytest.raises(ValueError, match="31 LEDs given, the firmware drives at most 30"):
        p.leds_payload([(0, 0, 0)] * 31)
    with pytest.raises(ValueError, match="bad LED colour"):
        p.leds_payload([(0, 256, 0)])
    with pytest.raises(ValueError, match=r"bad LED colour: \[1, 2\] is not \[r, g, b\]"):
        p.leds_payload([(1, 2)])
    with pytest.raises(ValueError, match="servo angle 181 is outside 0..180 degrees"):
        p.servo_payload(181)
    with pytest.raises(ValueError, match="payload of 103 bytes is over 102"):
        p.Packet(1, p.SET_LEDS, bytes(103)).encode()


STRIP = tuple(bytes((k, 2 * k, 3 * k)) for k in range(30))


def changed(strip, colours: dict[int, bytes]):
    return tuple(colours.get(k, rgb) for k, rgb in enumerate(strip))


def test_a_delta_sends_only_the_leds_from_the_first_to_the_last_that_differ():
    want = changed(STRIP, {3: b"\x09\x09\x09", 5: b"\x05\x05\x05"})
    assert p.led_update(STRIP, want) == (p.SET_RUN,
                                         b"\x03\x09\x09\x09" + STRIP[4] + b"\x05\x05\x05")
    assert p.led_update(STRIP, changed(STRIP, {29: b"\x01\x01\x01"})) == (
        p.SET_RUN, b"\x1d\x01\x01\x01")


ONE_LIT = (b"\x07\x00\x00",) + (p.DARK,) * 29


def test_the_whole_frame_goes_when_it_is_shorter_or_the_strip_is_unknown():
    assert p.led_update(STRIP, ONE_LIT) == (p.SET_LEDS, b"\x07\x00\x00")
    assert p.led_update(STRIP, (p.DARK,) * 30) == (p.SET_LEDS, b"")
    assert p.led_update(p.UNKNOWN, STRIP) == (p.SET_LEDS, b"".join(STRIP))
    assert p.led_update(p.UNKNOWN[:1] + STRIP[1:], STRIP) == (p.SET_RUN, b"\x00" + STRIP[0])


def test_a_limit_cuts_the_run_at_the_last_differing_led_within_it():
    want = changed(STRIP, {2: b"\x01\x01\x01", 4: b"\x02\x02\x02", 9: b"\x03\x03\x03"})
    assert p.led_update(STRIP, want, limit=5) == (p.SET_RUN, b"\x02\x01\x01\x01" + STRIP[3]
                                                  + b"\x02\x02\x02")
    assert p.led_update(p.UNKNOWN, STRIP, limit=2) == (p.SET_RUN, b"\x00" + STRIP[0] + STRIP[1])
    assert p.led_update(STRIP, ONE_LIT, limit=1) == (p.SET_LEDS, b"\x07\x00\x00")
    assert p.led_update(STRIP, ONE_LIT[::-1], limit=1) == (p.SET_RUN, b"\x01" + p.DARK)


def test_the_strip_after_a_command_and_after_one_that_may_have_been_lost():
    assert p.leds_after(p.UNKNOWN, p.SET_LEDS, b"\x01\x02\x03") == (b"\x01\x02\x03",) + (
        p.DARK,) * 29
    run = b"\x1c\x01\x02\x03\x04\x05\x06"
    assert p.leds_after(STRIP, p.SET_RUN, run) == STRIP[:28] + (b"\x01\x02\x03", b"\x04\x05\x06")
    assert p.leds_unsure(STRIP, p.SET_RUN, b"\x1c\x01\x02\x03" + STRIP[29]) == (
        STRIP[:28] + (None, STRIP[29]))
    assert p.leds_unsure(STRIP, p.SET_LEDS, b"".join(STRIP[:2])) == STRIP[:2] + (None,) * 28
