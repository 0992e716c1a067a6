"""The names customers and merchants read for payin methods: brands as they write themselves."""

from checkout.pages.method_names import method_name


def test_pix_automatico_and_wallets_are_named_as_their_owners_write_them(app):
    with app.test_request_context("/"):
        assert method_name("PIXAutomatic") == "Pix Automático"
        assert method_name("PagoFacil") == "Pago Fácil"
        assert method_name("Wallet", "TNG") == "Touch 'n Go eWallet"
        assert method_name("SPEI") == "SPEI"  # not listed: the API's name
