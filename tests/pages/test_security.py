"""Page security helpers: origins written back in one form, kept per process only for stored lengths."""

from checkout.pages import security


def test_an_origin_is_kept_per_process_only_up_to_a_stored_urls_length():
    security._kept_origin.cache_clear()
    assert security.origin_of("https://Shop.Example:443/back?x=1") == "https://shop.example"
    assert security.origin_of("https://shop.example/" + "a" * 600) == "https://shop.example"
    assert security.origin_of("javascript:alert(1)") is None
    assert security.origin_of("https://shop.example:8443;frame-ancestors *") is None
    assert security._kept_origin.cache_info().currsize == 3  # the short ones, not the long one
