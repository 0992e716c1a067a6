"""Logos: a JPEG's scans are counted before it is decoded, so that no upload costs minutes of CPU."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image, JpegImagePlugin

from checkout.errors import InvalidField
from checkout.merchants import policy

from .helpers import SOS, progressive_jpeg


def test_a_logo_of_thousands_of_scans_is_refused_before_it_is_decoded():
    # The upload of the issue: 512 KiB of a 4096 x 4096 picture's last scan, which decoded in minutes.
    hostile = progressive_jpeg(4096, 4096, scans=12_800)
    assert 500 * 1024 < len(hostile) <= policy.LOGO_MAX_BYTES and hostile.count(SOS) == 12_800
    started = time.process_time()
    with pytest.raises(policy.LogoRefused) as refused:
        policy.normalise_logo(hostile)
    assert time.process_time() - started < 1.0  # refused from its bytes: nothing was decoded
    assert (refused.value.why, refused.value.field, refused.value.rule) == (
        "scans",
        "logo",
        "must be a JPEG of at most 32 scans",
    )


def test_thirty_two_scans_are_kept_and_thirty_three_refused():
    kept = policy.normalise_logo(progressive_jpeg(64, 32, scans=32))
    with Image.open(io.BytesIO(kept)) as image:
        assert (image.format, image.size) == ("PNG", (64, 32))
    with pytest.raises(policy.LogoRefused) as refused:
        policy.normalise_logo(progressive_jpeg(64, 32, scans=33))
    assert (refused.value.why, refused.value.rule) == ("scans", "must be a JPEG of at most 32 scans")


@pytest.mark.parametrize(("mode", "scans"), [("L", 6), ("RGB", 10), ("CMYK", 18)])
def test_progressive_jpegs_as_encoders_write_them_are_kept(mode, scans):
    data = progressive_jpeg(200, 100, mode=mode)
    assert policy.jpeg_scans(data) == scans
    with Image.open(io.BytesIO(policy.normalise_logo(data))) as image:
        assert (image.format, image.mode, image.size) == ("PNG", "RGBA", (200, 100))


def test_a_large_jpeg_is_decoded_at_a_quarter_of_its_size_and_kept_at_the_stored_size(monkeypatch):
    decoded = []
    load = JpegImagePlugin.JpegImageFile.load
    monkeypatch.setattr(JpegImagePlugin.JpegImageFile, "load", lambda self: decoded.append(self.size) or load(self))
    kept = policy.normalise_logo(progressive_jpeg(4096, 2048))
    assert set(decoded) == {(1024, 512)}  # 1/4: still 512 pixels each way, twice the stored box turned either way
    with Image.open(io.BytesIO(kept)) as image:
        assert image.size == policy.LOGO_STORED


def test_what_comes_before_the_first_scan_is_stepped_over_by_its_length():
    # A comment (or an EXIF thumbnail, an ICC profile) may hold the bytes of a scan marker: not a scan.
    data = progressive_jpeg(64, 64, comment=SOS * 100)
    assert data.count(SOS) == 110 and policy.jpeg_scans(data) == 10
    assert policy.normalise_logo(data)


def test_past_anything_unexpected_every_scan_marker_counts():
    data = progressive_jpeg(64, 64)
    first_segment = 2  # after SOI: Pillow writes APP0 (JFIF) first
    assert data[first_segment : first_segment + 2] == b"\xff\xe0"
    bogus_length = data[: first_segment + 2] + b"\x00\x01" + data[first_segment + 4 :]
    assert policy.jpeg_scans(bogus_length) == 10
    garbage = data[:first_segment] + b"\x00" + SOS * 40 + data[first_segment:]
    assert policy.jpeg_scans(garbage) == 50


def test_the_command_lines_png_logo_is_refused_over_the_pixel_limit():
    out = io.BytesIO()
    Image.new("P", (4097, 4096)).save(out, format="PNG")  # a few kilobytes the pages would decode each time
    with pytest.raises(InvalidField) as refused:
        policy.check_logo(out.getvalue())
    assert (refused.value.field, refused.value.rule) == ("logo", "the logo must have at most 16777216 pixels")
    out = io.BytesIO()
    Image.new("P", (4096, 4096)).save(out, format="PNG")
    policy.check_logo(out.getvalue())
