"""Brazilian banks the sandbox knows: COMPE code -> (ISPB, name), as the central bank publishes them."""

BR_BANKS = {
    "001": ("00000000", "Banco do Brasil S.A."),
    "033": ("90400888", "Banco Santander (Brasil) S.A."),
    "104": ("00360305", "Caixa Econômica Federal"),
    "237": ("60746948", "Banco Bradesco S.A."),
    "341": ("60701190", "Itaú Unibanco S.A."),
    "260": ("18236120", "Nu Pagamentos S.A."),
    "077": ("00416968", "Banco Inter S.A."),
    "336": ("31872495", "Banco C6 S.A."),
    "756": ("02038232", "Banco Cooperativo Sicoob S.A."),
}
