"""Word lists and templates for ``bench/junk_final.py`` (the final, untouched junk evaluation set).

Everything here was written by hand for that generator: function-word lists per language, commercial keyword
heads and modifiers, spam anchors, CMS/theme boilerplate, consent/paywall/login/age-gate texts, error and parked
pages, affiliate and coupon furniture, forum-spam phrases and keyboard rows, in several languages. None of it is
taken from winnow's other junk generators or quality code. See ``bench/junk_final.py`` for how it is used and the
rule that the set is for final evaluation only.
"""

from __future__ import annotations


def _fw(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# -- function words (own small lists; languages without one get a frequency-derived list in junk_final.py) ---------
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": _fw("""the a an and or but if then else of to in on at by for with from as into onto upon about over under
        than that this these those there here is are was were be been being am do does did done have has had having will
        would shall should can could may might must not no nor so too very it its he she they them their theirs his her
        hers him we us our ours you your yours i me my mine who whom whose which what when where why how all any both
        each few more most other some such only own same just also again further once because while until against
        between through during before after above below up down out off yes s t don isn it's i'm you're"""),
    "de": _fw("""der die das den dem des ein eine einen einem einer eines und oder aber doch wenn dann als wie so zu zum
        zur im in an am auf aus bei mit nach von vom vor für über unter durch gegen ohne um ist sind war waren wird
        werden wurde wurden sein hat haben hatte hatten kann können muss soll sollte nicht kein keine auch noch nur
        schon sehr es er sie wir ihr ich du man sich seine ihre dieser diese dieses jeder jede alle was wer wo dass ob
        weil denn da hier dort mehr wieder bereits zwischen"""),
    "fr": _fw("""le la les l un une des du de d et ou mais donc or ni car que qu qui quoi dont où ce cet cette ces se sa
        son ses leur leurs il elle ils elles on nous vous je tu me te lui y en ne n pas plus est sont était été être
        avoir a ont avait fait au aux dans par pour sur sous avec sans entre vers chez comme aussi très tout tous toute
        toutes si même bien c s"""),
    "es": _fw("""el la los las lo un una unos unas y o pero sino que quien cual cuyo donde cuando como de del al a en
        con por para sin sobre entre hasta desde hacia según se su sus le les me te nos os él ella ellos ellas yo tú
        usted es son era fue ser estar está están ha han había hay muy más menos también ya no ni sí este esta estos
        estas ese esa eso todo todos"""),
    "it": _fw("""il lo la i gli le l un uno una e ed o ma che chi cui dove quando come di del della dei degli delle a al
        alla ai agli alle da dal dalla in nel nella nei con su sul sulla per tra fra si non è sono era stato essere ha
        hanno aveva anche più molto questo questa questi quello quella suo sua suoi loro ci vi ne lui lei noi voi io
        tu"""),
    "pt": _fw("""o a os as um uma uns umas e ou mas que quem qual onde quando como de do da dos das em no na nos nas por
        pelo pela para com sem sobre entre até se seu sua seus suas lhe ele ela eles elas eu tu você nós é são era foi
        ser estar está há tem têm muito mais menos também já não sim este esta isso aquele todo todos ao aos à às"""),
    "nl": _fw("""de het een en of maar dat die dit deze wie wat waar wanneer hoe van in op aan bij met voor door naar
        over onder uit tot om te als dan ook niet geen wel is zijn was waren wordt worden werd heeft hebben had kan
        kunnen moet zal zou hij zij ze wij we jij je ik u hun haar er hier daar nog al meer zeer"""),
    "pl": _fw("""i w we z ze na do od o u za przez dla po przy nad pod przed między a ale lub oraz że który która które
        którzy jak gdy gdzie co kto to ten ta te tego tej jest są był była było być ma mają nie się tak już też jeszcze
        bardzo tylko jego jej ich on ona oni my wy ja ty go mu"""),
    "ru": _fw("""и в во на с со к ко по о об от до из у за для при без над под через между а но или что чтобы как когда
        где кто это этот эта эти тот та те быть был была было были есть не ни же ли бы уже еще ещё очень только он она
        оно они мы вы я ты его её их ему ей им себя свой так все всё"""),
    "sv": _fw("""och i på att det som en ett är var för med till av om men eller inte den de han hon vi ni jag du sig
        sin sitt sina har hade kan ska skulle vid från över under efter så också bara mycket här där när hur vad
        vem"""),
    "da": _fw("""og i på at det som en et er var for med til af om men eller ikke den de han hun vi jeg du sig sin sit
        sine har havde kan skal skulle ved fra over under efter så også kun meget her der når hvordan hvad hvem"""),
    "nb": _fw("""og i på at det som en et ei er var for med til av om men eller ikke den de han hun vi dere jeg du seg
        sin sitt sine har hadde kan skal skulle ved fra over under etter så også bare mye her der når hvordan hva
        hvem"""),
    "tr": _fw("""ve ile de da bu şu o bir için gibi kadar daha çok en ama fakat veya ya ki ne mi mı mu mü olarak olan
        oldu olduğu ise her bütün sonra önce göre üzere değil var yok ben sen biz siz onlar bunu şunu onu bunun
        onun"""),
    "id": _fw("""dan yang di ke dari untuk dengan pada dalam adalah ini itu akan tidak juga atau oleh sebagai karena
        bahwa telah sudah ada bisa dapat saat lebih para serta agar namun tetapi jika kami kita mereka saya anda ia
        dia nya"""),
    "cs": _fw("""a i v ve na s se z ze k ke o u do od po pro při za pod nad před mezi že který která které jak když kde
        co kdo to ten ta je jsou byl byla bylo být má mají není ne si jeho její jejich on ona oni my vy já ty také už
        jen velmi"""),
    "ro": _fw("""și în la cu de din pe pentru prin despre sau dar că care ce cine unde când cum un o unui unei niște
        este sunt era fost fi are au nu se să mai foarte acest această aceste el ea ei ele noi voi eu tu lui lor al
        a ale"""),
    "hu": _fw("""a az és vagy de hogy is nem egy ez azt ezt van volt lesz meg már még csak mint ha mert kell lehet
        minden nagyon után előtt alatt felett között által szerint ő ők mi ti én te neki nekem"""),
    "fi": _fw("""ja tai mutta että on oli ovat olivat ei se ne hän he me te minä sinä joka mikä kun jos niin myös vain
        kuin sekä tämä tuo nämä olla ole sen sitä siitä hänen heidän"""),
    "ca": _fw("""el la els les l un una uns unes i o però que qui on quan com de del dels a al als en amb per sense
        sobre entre fins des es se seu seva seus li em et ens us ell ella ells elles jo tu és són era va ser estar ha
        han no ni molt més també ja aquest aquesta"""),
    "vi": _fw("""và của là có cho các những được trong với một này đã không người khi để từ đến như thì cũng về ra vào
        theo nhưng hay hoặc tại nên rất đó lại sẽ"""),
}

# -- languages used for localised furniture ---------------------------------------------------------------------
UI: dict[str, dict[str, str]] = {
    "en": {"home": "Home", "about": "About us", "blog": "Blog", "contact": "Contact", "services": "Services",
           "privacy": "Privacy Policy", "terms": "Terms of Use", "sitemap": "Sitemap", "search": "Search",
           "recent": "Recent Posts", "categories": "Categories", "archives": "Archives", "tags": "Tags",
           "rights": "All rights reserved.", "posted": "Posted on", "by": "by", "read_more": "Read more",
           "related": "Related posts", "source": "Source", "share": "Share", "menu": "Menu", "imprint": "Legal"},
    "de": {"home": "Startseite", "about": "Über uns", "blog": "Magazin", "contact": "Kontakt",
           "services": "Leistungen", "privacy": "Datenschutz", "terms": "AGB", "sitemap": "Sitemap",
           "search": "Suche", "recent": "Neueste Beiträge", "categories": "Kategorien", "archives": "Archiv",
           "tags": "Schlagwörter", "rights": "Alle Rechte vorbehalten.", "posted": "Veröffentlicht am",
           "by": "von", "read_more": "Weiterlesen", "related": "Ähnliche Beiträge", "source": "Quelle",
           "share": "Teilen", "menu": "Menü", "imprint": "Impressum"},
    "fr": {"home": "Accueil", "about": "Qui sommes-nous", "blog": "Actualités", "contact": "Contact",
           "services": "Nos services", "privacy": "Politique de confidentialité", "terms": "Mentions légales",
           "sitemap": "Plan du site", "search": "Rechercher", "recent": "Articles récents",
           "categories": "Catégories", "archives": "Archives", "tags": "Étiquettes",
           "rights": "Tous droits réservés.", "posted": "Publié le", "by": "par", "read_more": "Lire la suite",
           "related": "Articles similaires", "source": "Source", "share": "Partager", "menu": "Menu",
           "imprint": "CGU"},
    "es": {"home": "Inicio", "about": "Quiénes somos", "blog": "Blog", "contact": "Contacto",
           "services": "Servicios", "privacy": "Política de privacidad", "terms": "Aviso legal",
           "sitemap": "Mapa del sitio", "search": "Buscar", "recent": "Entradas recientes",
           "categories": "Categorías", "archives": "Archivos", "tags": "Etiquetas",
           "rights": "Todos los derechos reservados.", "posted": "Publicado el", "by": "por",
           "read_more": "Leer más", "related": "Artículos relacionados", "source": "Fuente", "share": "Compartir",
           "menu": "Menú", "imprint": "Cookies"},
    "it": {"home": "Home", "about": "Chi siamo", "blog": "Notizie", "contact": "Contatti", "services": "Servizi",
           "privacy": "Privacy", "terms": "Note legali", "sitemap": "Mappa del sito", "search": "Cerca",
           "recent": "Articoli recenti", "categories": "Categorie", "archives": "Archivi", "tags": "Tag",
           "rights": "Tutti i diritti riservati.", "posted": "Pubblicato il", "by": "di", "read_more": "Leggi tutto",
           "related": "Articoli correlati", "source": "Fonte", "share": "Condividi", "menu": "Menu",
           "imprint": "P.IVA"},
    "nl": {"home": "Home", "about": "Over ons", "blog": "Nieuws", "contact": "Contact", "services": "Diensten",
           "privacy": "Privacyverklaring", "terms": "Algemene voorwaarden", "sitemap": "Sitemap",
           "search": "Zoeken", "recent": "Recente berichten", "categories": "Categorieën", "archives": "Archief",
           "tags": "Tags", "rights": "Alle rechten voorbehouden.", "posted": "Geplaatst op", "by": "door",
           "read_more": "Lees meer", "related": "Gerelateerde berichten", "source": "Bron", "share": "Delen",
           "menu": "Menu", "imprint": "Colofon"},
    "pl": {"home": "Strona główna", "about": "O nas", "blog": "Blog", "contact": "Kontakt", "services": "Usługi",
           "privacy": "Polityka prywatności", "terms": "Regulamin", "sitemap": "Mapa strony", "search": "Szukaj",
           "recent": "Najnowsze wpisy", "categories": "Kategorie", "archives": "Archiwum", "tags": "Tagi",
           "rights": "Wszelkie prawa zastrzeżone.", "posted": "Opublikowano", "by": "przez",
           "read_more": "Czytaj dalej", "related": "Podobne wpisy", "source": "Źródło", "share": "Udostępnij",
           "menu": "Menu", "imprint": "Cookies"},
    "pt": {"home": "Início", "about": "Sobre nós", "blog": "Blog", "contact": "Contato", "services": "Serviços",
           "privacy": "Política de privacidade", "terms": "Termos de uso", "sitemap": "Mapa do site",
           "search": "Pesquisar", "recent": "Posts recentes", "categories": "Categorias", "archives": "Arquivos",
           "tags": "Tags", "rights": "Todos os direitos reservados.", "posted": "Publicado em", "by": "por",
           "read_more": "Leia mais", "related": "Posts relacionados", "source": "Fonte", "share": "Compartilhar",
           "menu": "Menu", "imprint": "Aviso"},
    "ru": {"home": "Главная", "about": "О нас", "blog": "Статьи", "contact": "Контакты", "services": "Услуги",
           "privacy": "Политика конфиденциальности", "terms": "Пользовательское соглашение",
           "sitemap": "Карта сайта", "search": "Поиск", "recent": "Свежие записи", "categories": "Рубрики",
           "archives": "Архивы", "tags": "Метки", "rights": "Все права защищены.", "posted": "Опубликовано",
           "by": "автор", "read_more": "Читать далее", "related": "Похожие записи", "source": "Источник",
           "share": "Поделиться", "menu": "Меню", "imprint": "Реклама"},
    "tr": {"home": "Anasayfa", "about": "Hakkımızda", "blog": "Blog", "contact": "İletişim",
           "services": "Hizmetlerimiz", "privacy": "Gizlilik Politikası", "terms": "Kullanım Şartları",
           "sitemap": "Site Haritası", "search": "Ara", "recent": "Son Yazılar", "categories": "Kategoriler",
           "archives": "Arşivler", "tags": "Etiketler", "rights": "Tüm hakları saklıdır.", "posted": "Yayınlanma",
           "by": "yazar", "read_more": "Devamını oku", "related": "Benzer yazılar", "source": "Kaynak",
           "share": "Paylaş", "menu": "Menü", "imprint": "KVKK"},
    "id": {"home": "Beranda", "about": "Tentang Kami", "blog": "Artikel", "contact": "Kontak",
           "services": "Layanan", "privacy": "Kebijakan Privasi", "terms": "Syarat dan Ketentuan",
           "sitemap": "Peta Situs", "search": "Cari", "recent": "Pos Terbaru", "categories": "Kategori",
           "archives": "Arsip", "tags": "Tag", "rights": "Hak cipta dilindungi.", "posted": "Diposting pada",
           "by": "oleh", "read_more": "Baca selengkapnya", "related": "Artikel terkait", "source": "Sumber",
           "share": "Bagikan", "menu": "Menu", "imprint": "Disclaimer"},
}

TAGLINES: dict[str, tuple[str, ...]] = {
    "en": ("Just another blog", "Your trusted source", "Tips, reviews and more", "Everything you need to know",
           "Best deals online", "News and guides", "Quality you can trust", "Since 2009"),
    "de": ("Ratgeber und Tests", "Ihr Experte vor Ort", "Tipps und Tricks", "Das Vergleichsportal"),
    "fr": ("Le guide pratique", "Votre expert local", "Conseils et avis", "Le meilleur du web"),
    "es": ("Tu guía de confianza", "Consejos y opiniones", "Expertos a tu servicio", "Lo mejor de la red"),
    "it": ("La tua guida", "Consigli e recensioni", "Esperti al tuo servizio"),
    "nl": ("Tips en reviews", "Uw specialist in de regio", "Vergelijk en bespaar"),
    "pl": ("Porady i rankingi", "Twój ekspert", "Najlepsze oferty"),
    "pt": ("Dicas e análises", "Seu guia confiável", "As melhores ofertas"),
    "ru": ("Полезные советы", "Лучшие предложения", "Все о ремонте"),
    "tr": ("En iyi fırsatlar", "Uzman rehberiniz", "Güncel haberler"),
    "id": ("Info terbaru", "Tips dan trik", "Solusi terpercaya"),
}

# -- keyword stuffing ---------------------------------------------------------------------------------------------
KEYWORD_HEADS_EN = (
    "emergency plumber", "roof repair", "personal injury lawyer", "car accident attorney", "payday loans",
    "bad credit loans", "cheap car insurance", "cbd oil", "keto diet pills", "weight loss supplements",
    "hair transplant", "teeth whitening", "vpn service", "web hosting", "seo services", "essay writing service",
    "replica watches", "cheap flights", "water damage restoration", "mold removal", "locksmith",
    "garage door repair", "carpet cleaning", "pest control", "junk removal", "moving company", "family dentist",
    "online casino bonus", "forex trading signals", "crypto wallet", "wedding photographer", "tree removal",
    "hvac repair", "solar panel installation", "bathroom remodeling", "kitchen cabinets", "dog grooming",
    "air fryer", "gaming chair", "robot vacuum", "standing desk", "electric bike", "protein powder",
    "running shoes", "memory foam mattress", "baby stroller", "window cleaning", "iptv subscription",
    "instagram followers", "tiktok likes", "free movie streaming", "mod apk download", "bail bonds",
    "dui lawyer", "drug rehab center", "botox clinic", "gutter cleaning", "concrete contractor", "towing service",
)
KEYWORD_PREFIXES_EN = ("best", "cheap", "affordable", "top rated", "professional", "24/7", "local", "certified",
                       "licensed", "trusted", "discount", "same day", "emergency", "free", "top", "reliable")
KEYWORD_SUFFIXES_EN = ("near me", "in {city}", "{city}", "services", "reviews", "prices", "cost", "{year}",
                       "for sale", "online", "company", "deals", "coupon", "free trial", "open now", "reddit",
                       "quotes", "{city} {state}", "no credit check", "experts")
CITIES_EN = (("Austin", "TX"), ("Dallas", "TX"), ("Houston", "TX"), ("Phoenix", "AZ"), ("Denver", "CO"),
             ("Tampa", "FL"), ("Orlando", "FL"), ("Miami", "FL"), ("Atlanta", "GA"), ("Charlotte", "NC"),
             ("Raleigh", "NC"), ("Nashville", "TN"), ("Columbus", "OH"), ("Cleveland", "OH"), ("Chicago", "IL"),
             ("Detroit", "MI"), ("Seattle", "WA"), ("Portland", "OR"), ("Sacramento", "CA"), ("San Diego", "CA"),
             ("San Jose", "CA"), ("Las Vegas", "NV"), ("Salt Lake City", "UT"), ("Kansas City", "MO"),
             ("St. Louis", "MO"), ("Indianapolis", "IN"), ("Louisville", "KY"), ("Memphis", "TN"),
             ("Baltimore", "MD"), ("Richmond", "VA"), ("Boise", "ID"), ("Tucson", "AZ"), ("Omaha", "NE"),
             ("Albuquerque", "NM"), ("Pittsburgh", "PA"), ("Milwaukee", "WI"), ("Jacksonville", "FL"),
             ("Fresno", "CA"), ("Mesa", "AZ"), ("Wichita", "KS"))
CITIES_UK_AU = ("London", "Manchester", "Birmingham", "Leeds", "Glasgow", "Bristol", "Sheffield", "Liverpool",
                "Sydney", "Melbourne", "Brisbane", "Perth", "Adelaide", "Auckland", "Toronto", "Calgary")

# per language: keyword heads, modifiers, cities, sentence frames ({kw}, {city}, {s} = a real sentence)
KEYWORDS_I18N: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {"heads": ("Schlüsseldienst", "Umzugsfirma", "Zahnarzt", "Kredit ohne Schufa", "Kfz Versicherung",
                     "Heizungsnotdienst", "Entrümpelung", "Gebäudereinigung", "Dachdecker", "Rohrreinigung",
                     "Fensterputzer", "Steuerberater"),
           "mods": ("günstig", "in der Nähe", "Preise", "Erfahrungen", "Test", "Vergleich", "24h", "Notdienst",
                    "sofort", "kaufen", "Kosten", "seriös"),
           "cities": ("Berlin", "Hamburg", "München", "Köln", "Frankfurt", "Stuttgart", "Düsseldorf", "Leipzig",
                      "Dortmund", "Essen", "Bremen", "Hannover"),
           "frames": ("{kw} {city} – {s}", "Sie suchen {kw}? {s}", "{s} Ihr {kw} in {city}.",
                      "{kw} {city} günstig: {s}", "{s} Jetzt {kw} anrufen!", "Ihr zuverlässiger {kw} {city}. {s}")},
    "fr": {"heads": ("serrurier", "plombier", "déménagement", "rachat de crédit", "assurance auto",
                     "mutuelle santé", "voyance gratuite", "régime rapide", "chaudière", "pompe à chaleur",
                     "dépannage informatique", "nettoyage vitres"),
           "mods": ("pas cher", "urgence", "avis", "prix", "gratuit", "24h/24", "rapide", "meilleur", "devis",
                    "en ligne"),
           "cities": ("Paris", "Lyon", "Marseille", "Toulouse", "Nice", "Nantes", "Bordeaux", "Lille", "Strasbourg",
                      "Montpellier", "Rennes", "Reims"),
           "frames": ("{kw} {city} : {s}", "Besoin d'un {kw} ? {s}", "{s} Votre {kw} à {city}.",
                      "{kw} pas cher {city} – {s}", "{s} Appelez votre {kw} {city} !", "Meilleur {kw} {city}. {s}")},
    "es": {"heads": ("cerrajero", "fontanero", "mudanzas", "préstamos rápidos", "seguro de coche",
                     "abogado de accidentes", "dentista", "reformas integrales", "limpieza de oficinas",
                     "tarot gratis", "desatascos", "aire acondicionado"),
           "mods": ("barato", "urgente", "24 horas", "opiniones", "precio", "mejor", "cerca de mí", "gratis",
                    "económico", "online"),
           "cities": ("Madrid", "Barcelona", "Valencia", "Sevilla", "Málaga", "Bilbao", "Zaragoza", "Murcia",
                      "Alicante", "Granada", "Córdoba", "Valladolid"),
           "frames": ("{kw} {city}: {s}", "¿Buscas {kw}? {s}", "{s} Tu {kw} en {city}.",
                      "{kw} barato {city} – {s}", "{s} ¡Llama ya a tu {kw} {city}!", "El mejor {kw} de {city}. {s}")},
    "it": {"heads": ("fabbro", "idraulico", "traslochi", "prestiti", "assicurazione auto", "dentista",
                     "impresa di pulizie", "caldaia", "avvocato", "dimagrire velocemente", "spurgo", "infissi"),
           "mods": ("economico", "pronto intervento", "prezzi", "recensioni", "migliore", "vicino a me", "online",
                    "offerte", "24 ore"),
           "cities": ("Roma", "Milano", "Napoli", "Torino", "Palermo", "Genova", "Bologna", "Firenze", "Bari",
                      "Verona", "Padova", "Brescia"),
           "frames": ("{kw} {city}: {s}", "Cerchi un {kw}? {s}", "{s} Il tuo {kw} a {city}.",
                      "{kw} economico {city} – {s}", "{s} Chiama subito il {kw} {city}!", "Miglior {kw} {city}. {s}")},
    "nl": {"heads": ("slotenmaker", "loodgieter", "verhuisbedrijf", "lening", "autoverzekering", "tandarts",
                     "schoonmaakbedrijf", "dakdekker", "zonnepanelen", "cv ketel", "ontstopping", "glazenwasser"),
           "mods": ("goedkoop", "spoed", "24/7", "ervaringen", "prijzen", "beste", "in de buurt", "kopen",
                    "vergelijken"),
           "cities": ("Amsterdam", "Rotterdam", "Utrecht", "Den Haag", "Eindhoven", "Groningen", "Tilburg",
                      "Almere", "Breda", "Nijmegen"),
           "frames": ("{kw} {city}: {s}", "Op zoek naar een {kw}? {s}", "{s} Uw {kw} in {city}.",
                      "Goedkope {kw} {city} – {s}", "{s} Bel direct uw {kw} {city}!", "Beste {kw} {city}. {s}")},
    "pl": {"heads": ("ślusarz", "hydraulik", "przeprowadzki", "chwilówki", "ubezpieczenie OC", "dentysta",
                     "sprzątanie biur", "pożyczka bez BIK", "kredyt gotówkowy", "fotowoltaika",
                     "pogotowie kanalizacyjne",
                     "tłumacz przysięgły"),
           "mods": ("tanio", "opinie", "cena", "najlepszy", "24h", "ranking", "online", "szybko", "blisko mnie"),
           "cities": ("Warszawa", "Kraków", "Łódź", "Wrocław", "Poznań", "Gdańsk", "Szczecin", "Lublin",
                      "Katowice", "Białystok"),
           "frames": ("{kw} {city} – {s}", "Szukasz: {kw}? {s}", "{s} {kw} {city} tanio.",
                      "Najlepszy {kw} {city}: {s}", "{s} Zadzwoń: {kw} {city}!", "{kw} {city} opinie. {s}")},
    "pt": {"heads": ("chaveiro", "encanador", "empréstimo consignado", "seguro auto", "dentista", "mudanças",
                     "emagrecer rápido", "advogado trabalhista", "ar condicionado", "dedetização", "desentupidora",
                     "contabilidade"),
           "mods": ("barato", "24 horas", "preço", "melhor", "perto de mim", "online", "grátis", "confiável"),
           "cities": ("São Paulo", "Rio de Janeiro", "Belo Horizonte", "Curitiba", "Porto Alegre", "Salvador",
                      "Recife", "Fortaleza", "Lisboa", "Porto"),
           "frames": ("{kw} {city}: {s}", "Procurando {kw}? {s}", "{s} Seu {kw} em {city}.",
                      "{kw} barato {city} – {s}", "{s} Ligue agora para o {kw} {city}!", "Melhor {kw} {city}. {s}")},
    "ru": {"heads": ("эвакуатор", "вскрытие замков", "грузоперевозки", "займ на карту", "ОСАГО", "стоматология",
                     "ремонт квартир", "купить диплом", "натяжные потолки", "юрист по банкротству", "клининг",
                     "вывоз мусора"),
           "mods": ("недорого", "круглосуточно", "цена", "отзывы", "лучший", "срочно", "онлайн", "без отказа",
                    "рядом"),
           "cities": ("Москва", "Санкт-Петербург", "Новосибирск", "Екатеринбург", "Казань", "Нижний Новгород",
                      "Самара", "Омск", "Ростов-на-Дону", "Уфа"),
           "frames": ("{kw} {city} — {s}", "Нужен {kw}? {s}", "{s} {kw} {city} недорого.",
                      "{kw} {city} круглосуточно: {s}", "{s} Звоните: {kw} {city}!", "Лучший {kw} {city}. {s}")},
    "tr": {"heads": ("çilingir", "tesisatçı", "evden eve nakliyat", "ihtiyaç kredisi", "kasko", "diş hekimi",
                     "temizlik şirketi", "kombi servisi", "boşanma avukatı", "zayıflama çayı", "klima servisi",
                     "halı yıkama"),
           "mods": ("ucuz", "7/24", "fiyatları", "yorumları", "en iyi", "yakınımda", "acil", "hemen"),
           "cities": ("İstanbul", "Ankara", "İzmir", "Bursa", "Antalya", "Adana", "Konya", "Gaziantep", "Kayseri",
                      "Mersin"),
           "frames": ("{city} {kw} – {s}", "{kw} mı arıyorsunuz? {s}", "{s} {city} {kw} hizmeti.",
                      "En ucuz {kw} {city}: {s}", "{s} Hemen arayın: {kw} {city}!", "{city} en iyi {kw}. {s}")},
    "id": {"heads": ("jasa sedot wc", "tukang kunci", "pinjaman online", "asuransi mobil", "dokter gigi",
                     "jasa pindahan", "obat pelangsing", "jasa seo", "sewa mobil", "service ac",
                     "jasa cleaning service",
                     "kontraktor rumah"),
           "mods": ("murah", "terdekat", "24 jam", "terpercaya", "terbaik", "harga", "resmi", "cepat"),
           "cities": ("Jakarta", "Surabaya", "Bandung", "Medan", "Semarang", "Makassar", "Palembang", "Depok",
                      "Tangerang", "Bekasi"),
           "frames": ("{kw} {city} – {s}", "Cari {kw}? {s}", "{s} {kw} {city} murah.",
                      "{kw} terdekat {city}: {s}", "{s} Hubungi {kw} {city} sekarang!", "{kw} terbaik {city}. {s}")},
}

# English sentence frames: {kw} a keyword variant, {s} a real sentence, {city}
STUFF_FRAMES_EN = (
    "When it comes to {kw}, {s_lower}", "{s} That is why {kw} matters.", "Looking for {kw}? {s}",
    "{s} Call today for {kw} in {city}!", "Our {kw} experts know that {s_lower}", "{kw}: {s}",
    "{s} We are the #1 {kw} provider.", "If you need {kw}, remember: {s_lower}", "{s} ({kw})",
    "Many people search for {kw} because {s_lower}", "{s} Contact the best {kw} now.",
    "Why choose our {kw}? {s}", "{s} {kw} | {kw2} | {kw3}",
)
FAQ_FRAMES_EN = ("How much does {kw} cost?", "What is the best {kw}?", "Is {kw} worth it?",
                 "Where can I find {kw}?", "How do I choose {kw}?", "Why is {kw} so expensive?",
                 "Do I need {kw}?", "What should I look for in {kw}?", "Is there {kw} open now?")
FAQ_ANSWERS_EN = ("The best {kw} depends on your needs, but {kw} from a trusted {kw2} is always a good choice.",
                  "Yes, {kw} is worth it. Contact our {kw} team for {kw3} today.",
                  "{kw} prices vary. For the best {kw}, call us for a free {kw} quote.",
                  "You can find {kw} right here. We offer {kw}, {kw2} and {kw3}.")

# -- link farms -------------------------------------------------------------------------------------------------
SPAM_ANCHORS: dict[str, tuple[str, ...]] = {
    "en": ("casino online", "best online casino", "free spins no deposit", "payday loans online", "buy cheap viagra",
           "replica rolex", "cheap nfl jerseys", "essay writing service", "buy essay online", "write my paper",
           "buy instagram followers", "cheap youtube views", "seo backlinks", "buy backlinks", "crypto signals",
           "bitcoin doubler", "forex robot", "weight loss pills", "male enhancement", "cbd gummies",
           "keto gummies", "cheap web hosting", "vpn free download", "cracked software", "free movies online",
           "watch series free", "mp3 download free", "mod apk", "hack generator", "free gift cards",
           "cheap car rental", "bail bonds near me", "personal loans fast", "debt consolidation", "sports betting tips",
           "fake id online", "buy driving licence", "replica handbags", "cheap louis vuitton", "online pharmacy",
           "dating site free", "hot singles", "web design agency", "plumber near me", "click here", "visit website",
           "this site", "more info", "read more here", "check this out", "homepage", "my blog", "learn more"),
    "id": ("slot gacor", "situs slot online", "judi bola", "agen togel", "slot deposit pulsa", "daftar slot",
           "link alternatif", "bandar qq", "rtp slot hari ini", "situs toto", "maxwin"),
    "ru": ("купить диплом", "скачать бесплатно", "онлайн казино", "займ без отказа", "продвижение сайтов",
           "ставки на спорт", "порно", "кредит онлайн", "купить права", "раскрутка сайта"),
    "de": ("Kredit ohne Schufa", "online casino echtgeld", "Potenzmittel kaufen", "Backlinks kaufen",
           "Führerschein kaufen", "günstige Versicherung", "Sportwetten Bonus"),
    "fr": ("casino en ligne", "voyance gratuite", "rachat de crédit", "achat viagra", "paris sportifs",
           "acheter des abonnés", "streaming gratuit"),
    "es": ("casino online", "préstamos rápidos", "tarot gratis", "comprar seguidores", "apuestas deportivas",
           "viagra sin receta", "películas gratis"),
    "pl": ("kasyno online", "chwilówki bez BIK", "pozycjonowanie stron", "zakłady bukmacherskie",
           "tanie ubezpieczenie"),
    "tr": ("canlı bahis", "deneme bonusu", "bahis siteleri", "takipçi satın al", "casino siteleri",
           "escort bayan"),
    "pt": ("cassino online", "empréstimo rápido", "comprar seguidores", "apostas esportivas", "filmes grátis"),
}
SPAM_HOST_WORDS = ("best", "cheap", "top", "pro", "deal", "win", "lucky", "mega", "fast", "easy", "free", "vip",
                   "king", "star", "hub", "zone", "spot", "world", "online", "club", "shop", "store", "max", "gold",
                   "net", "web", "seo", "link", "rank", "click", "info", "media", "casino", "slot", "loan", "cash",
                   "pharma", "pills", "essay", "paper", "jersey", "watch", "replica", "bet", "crypto", "coin")
SPAM_TLDS = ("com", "net", "org", "info", "xyz", "top", "online", "site", "club", "biz", "pw", "ru", "in", "co",
             "live", "shop", "store", "icu", "buzz", "cc", "tk", "ml", "me", "us", "io", "website", "space", "fun")
DIRECTORY_CATEGORIES = ("Arts & Humanities", "Business & Economy", "Computers & Internet", "Education",
                        "Entertainment", "Government", "Health", "News & Media", "Recreation & Sports", "Reference",
                        "Regional", "Science", "Shopping", "Society & Culture", "Travel", "Home & Garden",
                        "Automotive", "Finance", "Legal", "Real Estate", "Pets", "Gambling", "Dating", "Web Design")
LINK_PAGE_TITLES = ("Partners", "Useful Links", "Resources", "Link Exchange", "Friends", "Blogroll",
                    "Recommended Sites", "Web Directory", "Our Partners", "Links", "Top Sites", "Sponsors")

# -- lorem / templates ------------------------------------------------------------------------------------------
LOREM_CLASSIC = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore "
                 "et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut "
                 "aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse "
                 "cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in "
                 "culpa qui officia deserunt mollit anim id est laborum.")
LOREM_WORDS = _words("""lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt
    ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip
    ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla
    pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est
    laborum curabitur vestibulum aenean vivamus pellentesque habitant morbi tristique senectus netus nullam
    donec fusce maecenas integer suspendisse quisque phasellus etiam praesent mauris nam cras proin sapien
    tellus ultrices lacinia feugiat viverra porttitor tincidunt elementum faucibus facilisis malesuada pharetra
    sollicitudin vulputate egestas mattis rhoncus volutpat blandit dignissim euismod gravida hendrerit imperdiet
    lobortis molestie nibh odio pretium pulvinar sagittis scelerisque semper suscipit tempus ullamcorper varius
    vehicula venenatis convallis condimentum congue cursus dapibus eleifend fermentum fringilla iaculis interdum
    justo lectus libero ligula luctus massa metus nisl nunc orci ornare placerat posuere purus quam risus rutrum
    sem urna augue arcu accumsan aliquet auctor bibendum diam efficitur at vel nec a ac eget mi leo erat felis
    turpis""")
FOOD_IPSUM_WORDS = _words("""cupcake muffin brownie croissant macaroon tiramisu marzipan gummies caramel toffee
    chocolate cake pudding lollipop jelly beans icing sugar plum tart donut sesame snaps wafer gingerbread cotton candy
    halvah liquorice danish pastry souffle bonbon candy canes dragée bacon pork belly brisket jerky sirloin tenderloin
    ribeye biltong pastrami kielbasa shankle andouille chuck meatball turducken picanha tri-tip""")
HIPSTER_WORDS = _words("""artisan kombucha vinyl sriracha tofu sustainable flannel mustache skateboard aesthetic
    letterpress fixie chillwave selvage cold-pressed pour-over gastropub microdosing normcore brooklyn kale chips
    meditation heirloom bespoke vegan typewriter polaroid ethical umami tattooed pop-up biodiesel farm-to-table
    shoreditch single-origin coffee craft beer succulents authentic distillery unicorn""")
BLINDTEXT: dict[str, tuple[str, ...]] = {
    "de": ("Dies ist ein Blindtext.", "Hier steht ein Beispieltext, der später durch echten Inhalt ersetzt wird.",
           "Dieser Text dient nur als Platzhalter.", "An dieser Stelle steht bald Ihr eigener Text.",
           "Überschrift hier einfügen", "Textbaustein zur Demonstration des Layouts.",
           "Bitte hier den Inhalt der Seite eintragen.", "Musterfirma GmbH, Musterstraße 1, 12345 Musterstadt"),
    "fr": ("Ceci est un texte d'exemple.", "Votre texte ici.",
           "Ce paragraphe est un faux texte destiné à la mise en page.",
           "Remplacez ce texte par votre propre contenu.", "Titre de la section", "Texte de démonstration.",
           "Cliquez ici pour modifier le texte.", "Nom de l'entreprise, 1 rue Exemple, 75000 Ville"),
    "es": ("Este es un texto de ejemplo.", "Escribe aquí tu texto.", "Este párrafo es un texto de relleno.",
           "Sustituye este texto por tu propio contenido.", "Título de la sección", "Texto de demostración.",
           "Haz clic aquí para editar el texto.", "Nombre de la empresa, Calle Ejemplo 1, 28000 Ciudad"),
    "it": ("Questo è un testo di esempio.", "Inserisci qui il tuo testo.", "Questo paragrafo è un testo segnaposto.",
           "Sostituisci questo testo con i tuoi contenuti.", "Titolo della sezione", "Testo dimostrativo.",
           "Fai clic qui per modificare il testo.", "Nome Azienda S.r.l., Via Esempio 1, 00100 Città"),
    "pt": ("Este é um texto de exemplo.", "Digite seu texto aqui.", "Este parágrafo é um texto provisório.",
           "Substitua este texto pelo seu conteúdo.", "Título da seção", "Texto de demonstração.",
           "Clique aqui para editar o texto.", "Nome da Empresa Ltda., Rua Exemplo 1, 01000-000 Cidade"),
    "nl": ("Dit is een voorbeeldtekst.", "Plaats hier uw tekst.", "Deze alinea is opvultekst.",
           "Vervang deze tekst door uw eigen inhoud.", "Titel van de sectie", "Demonstratietekst.",
           "Klik hier om de tekst te bewerken.", "Bedrijfsnaam B.V., Voorbeeldstraat 1, 1234 AB Plaats"),
}
THEME_DEMO_EN = (
    "Welcome to your new site. This is your first post. Edit or delete it, then start writing!",
    "This is an example page. It is different from a blog post because it will stay in one place and will show up "
    "in your site navigation (in most themes).",
    "I'm a paragraph. Click here to add your own text and edit me. It's easy.",
    "I'm a great place for you to tell a story and let your users know a little more about you.",
    "Add a short description of your business here. Tell visitors what makes you different.",
    "Hi there! I'm a bike messenger by day, aspiring actor by night, and this is my website.",
    "Use this space to introduce your team, your mission, or your latest project.",
    "This block is a placeholder. Replace it with your own content in the page editor.",
    "Describe your service here. What makes it great? Use short catchy text to tell people what you offer.",
    "Your Title Goes Here", "Add your heading text here", "Section title", "Service One", "Service Two",
    "Service Three", "Client Name, Company", "John Doe, CEO", "Jane Smith, Designer", "Sample Product",
    "Hello world!", "Sample Page", "Uncategorized", "Proudly powered by your favourite CMS",
    "A Commenter: Hi, this is a comment. To delete a comment, just log in and view the post's comments.",
    "Testimonial text goes here. This is a great place to share what clients say about you.",
    "Button text", "Learn More", "Get Started", "Call to action headline", "Feature title",
)
TYPOGRAPHY_DEMO = ("Heading 1", "Heading 2", "Heading 3", "Heading 4", "Heading 5", "Heading 6",
                   "This is a paragraph with bold text, italic text, and a link.", "Blockquote",
                   "Unordered list item", "Ordered list item", "Definition list", "Table header",
                   "Preformatted text", "Image alignment", "Left aligned image", "Centered image")
PLACEHOLDERS = ("{{ page.title }}", "{{ product.description }}", "{{ site.name }}", "{% block content %}{% endblock %}",
                "${article.body}", "${user.firstName}", "%%title%% %%page%% %%sep%% %%sitename%%", "%%excerpt%%",
                "[insert company name]", "[CITY]", "[KEYWORD]", "{KEYWORD}", "{PRODUCT_NAME}", "{{author_bio}}",
                "<?php echo $title; ?>", "undefined", "null", "NaN", "[object Object]",
                "{{ 'general.404.title' | t }}", "translation missing: en.products.product.add_to_cart",
                "TODO: write content", "$LOREM_PLACEHOLDER", "__CONTENT__", "#{description}", "{{{body}}}",
                "<%= @post.summary %>", "[[TEASER_TEXT]]", "{$smarty.const.SITE_NAME}", "@@price@@",
                "{{ cta_button_label }}", "[shortcode_not_found]", "[contact-form-7 id=\"404\" title=\"Contact\"]",
                "[vc_row][vc_column][vc_column_text]", "[/vc_column_text][/vc_column][/vc_row]")
TEMPLATE_ERRORS = (
    "Notice: Undefined index: title in /var/www/html/includes/header.php on line 42",
    "Warning: Invalid argument supplied for foreach() in /home/site/public_html/wp-content/themes/flavor/loop.php "
    "on line 118",
    "Warning: mysql_fetch_array() expects parameter 1 to be resource, boolean given in /var/www/index.php on line 7",
    "Fatal error: Uncaught Error: Call to undefined function get_field() in /srv/www/templates/single.php:23",
    "Deprecated: Function create_function() is deprecated in /var/www/vhosts/site/plugins/slider.php on line 210",
    "Error: template 'sidebar.tpl' not found", "Liquid error: Could not find asset snippets/product-card.liquid",
    "TemplateSyntaxError: unexpected '}' at line 3", "Parse error: syntax error, unexpected '<' in config.php",
)
SPINTAX = ("{Best|Top|Greatest|Finest} {tips|ideas|ways|tricks} {for|to get} {KEYWORD}",
           "{Are you|If you are} {looking|searching} for {KEYWORD}? {Look no further|You came to the right place}!",
           "{This|Our} {amazing|incredible|awesome} {article|post|guide} {will show|shows} you {everything|all} "
           "{you need|you have} to {know|learn} about {KEYWORD}.",
           "{In today's world|Nowadays|These days}, {KEYWORD} is {very|extremely|really} {important|popular}.",
           "{Click here|Visit our site|Check out} {to learn more|for more info|for details}.",
           "{We|Our team} {offer|provide} the {best|highest quality} {KEYWORD} {at the lowest price|for you}.",
           "{So|Therefore|Thus}, {don't wait|hurry up|act now} and {get|buy|order} {KEYWORD} {today|now}!")

# -- repeated boilerplate -----------------------------------------------------------------------------------------
SHARE_BARS: dict[str, tuple[str, ...]] = {
    "en": ("Share on Facebook", "Tweet", "Pin it", "Share on WhatsApp", "Email", "Print", "Share on LinkedIn",
           "Copy link"),
    "de": ("Auf Facebook teilen", "Twittern", "Merken", "Per WhatsApp teilen", "E-Mail", "Drucken"),
    "fr": ("Partager sur Facebook", "Tweeter", "Épingler", "Envoyer par WhatsApp", "E-mail", "Imprimer"),
    "es": ("Compartir en Facebook", "Tuitear", "Guardar", "Enviar por WhatsApp", "Correo", "Imprimir"),
}
LIKE_LINES = {"en": ("Like this:", "Like Loading...", "Related", "Share this:", "Click to share (Opens in new window)"),
              "de": ("Gefällt mir:", "Gefällt mir Wird geladen …", "Ähnliche Beiträge", "Teilen mit:"),
              "fr": ("J'aime ça :", "J'aime chargement…", "Articles similaires", "Partager :"),
              "es": ("Me gusta:", "Me gusta Cargando...", "Relacionado", "Comparte esto:")}
DISCLAIMERS: dict[str, tuple[str, ...]] = {
    "en": ("As an Amazon Associate we earn from qualifying purchases. This post may contain affiliate links.",
           "Disclaimer: The information on this page is for general informational purposes only and is not medical, "
           "legal or financial advice. Always consult a professional.",
           "We use cookies to improve your experience. By continuing to browse you agree to our use of cookies.",
           "Prices and availability are accurate as of the date/time indicated and are subject to change.",
           "This article was last updated. All trademarks belong to their respective owners.",
           "Results may vary. These statements have not been evaluated by the Food and Drug Administration."),
    "de": ("Als Amazon-Partner verdienen wir an qualifizierten Verkäufen. Dieser Beitrag enthält Werbelinks.",
           "Haftungsausschluss: Die Inhalte dieser Seite dienen nur der allgemeinen Information und ersetzen keine "
           "fachliche Beratung.",
           "Letzte Aktualisierung der Preise. Preise inkl. MwSt., zzgl. Versandkosten. Angaben ohne Gewähr.",
           "Wir verwenden Cookies. Mit der Nutzung der Seite stimmen Sie der Verwendung von Cookies zu."),
    "fr": ("En tant que Partenaire Amazon, nous réalisons un bénéfice sur les achats remplissant les conditions "
           "requises.", "Avertissement : les informations de cette page sont fournies à titre indicatif uniquement.",
           "Ce site utilise des cookies. En poursuivant votre navigation, vous acceptez leur utilisation."),
    "es": ("Como afiliado de Amazon, obtenemos ingresos por las compras adscritas que cumplen los requisitos.",
           "Aviso: la información de esta página es meramente orientativa y no sustituye el consejo profesional.",
           "Utilizamos cookies propias y de terceros. Si continúa navegando, acepta su uso."),
}
NEWSLETTER: dict[str, tuple[str, ...]] = {
    "en": ("Subscribe to our newsletter", "Get the latest updates straight to your inbox.", "Enter your email address",
           "Subscribe", "We respect your privacy. Unsubscribe at any time.", "Join 10,000+ readers!",
           "Don't miss out!", "Sign up for free"),
    "de": ("Newsletter abonnieren", "Die neuesten Angebote direkt in Ihr Postfach.", "Ihre E-Mail-Adresse",
           "Anmelden", "Abmeldung jederzeit möglich.", "Jetzt 10 % Rabatt sichern!"),
    "fr": ("Inscrivez-vous à notre newsletter", "Recevez nos dernières offres.", "Votre adresse e-mail",
           "S'inscrire", "Désinscription possible à tout moment.", "-10 % sur votre première commande !"),
    "es": ("Suscríbete a nuestro boletín", "Recibe las últimas novedades en tu correo.", "Tu correo electrónico",
           "Suscribirme", "Puedes darte de baja cuando quieras.", "¡No te lo pierdas!"),
}

# -- walls -----------------------------------------------------------------------------------------------------
COOKIE_WALL: dict[str, dict[str, object]] = {
    "en": {"title": "We value your privacy",
           "intro": ("We and our {n} partners store and/or access information on a device, such as cookies, and "
                     "process personal data, such as unique identifiers and standard information sent by a device, "
                     "for personalised advertising and content, advertising and content measurement, audience research "
                     "and services development."),
           "more": ("With your permission we and our partners may use precise geolocation data and identification "
                    "through device scanning. You may click to consent to our and our partners' processing as "
                    "described above. Alternatively you may access more detailed information and change your "
                    "preferences before consenting or to refuse consenting. Your preferences will apply to this "
                    "website only. You can change your preferences at any time by returning to this site or visiting "
                    "our privacy policy."),
           "purposes": ("Store and/or access information on a device", "Use limited data to select advertising",
                        "Create profiles for personalised advertising", "Use profiles to select personalised content",
                        "Measure advertising performance", "Measure content performance",
                        "Understand audiences through statistics or combinations of data from different sources",
                        "Develop and improve services", "Use limited data to select content",
                        "Ensure security, prevent and detect fraud, and fix errors", "Deliver and present advertising"),
           "buttons": ("Accept all", "Reject all", "Manage options", "Show purposes", "Vendor list", "Save & exit",
                       "Legitimate interest", "Strictly necessary cookies", "Performance cookies",
                       "Functional cookies", "Targeting cookies", "Always active")},
    "de": {"title": "Wir respektieren Ihre Privatsphäre",
           "intro": ("Wir und unsere {n} Partner speichern und/oder greifen auf Informationen auf einem Gerät zu, "
                     "beispielsweise auf Cookies, und verarbeiten personenbezogene Daten, z. B. eindeutige Kennungen "
                     "und standardmäßige Informationen, die von einem Gerät für personalisierte Anzeigen und Inhalte, "
                     "Anzeigen- und Inhaltsmessungen sowie Erkenntnisse über Zielgruppen gesendet werden."),
           "more": ("Mit Ihrer Erlaubnis dürfen wir und unsere Partner über Gerätescans genaue Standortdaten und "
                    "Kenndaten abfragen. Sie können auf den Button klicken, um der oben beschriebenen "
                    "Datenverarbeitung zuzustimmen. Sie können Ihre "
                    "Einstellungen jederzeit über den Link in der Fußzeile ändern."),
           "purposes": ("Informationen auf einem Gerät speichern und/oder abrufen",
                        "Personalisierte Anzeigen und Inhalte", "Anzeigen- und Inhaltsmessung",
                        "Erkenntnisse über Zielgruppen", "Entwicklung und Verbesserung von Produkten",
                        "Genaue Standortdaten verwenden", "Sicherheit gewährleisten und Betrug verhindern"),
           "buttons": ("Alle akzeptieren", "Ablehnen", "Einstellungen", "Zwecke anzeigen", "Partnerliste",
                       "Auswahl speichern", "Berechtigtes Interesse", "Notwendige Cookies", "Statistik", "Marketing",
                       "Mit Werbung lesen", "Pur-Abo abschließen")},
    "fr": {"title": "Nous respectons votre vie privée",
           "intro": ("Nos {n} partenaires et nous-mêmes stockons et/ou accédons à des informations sur un appareil, "
                     "telles que les cookies, et traitons les données personnelles, telles que les identifiants "
                     "uniques et les informations standard envoyées par chaque appareil pour diffuser des publicités "
                     "et du contenu personnalisés, mesurer les performances des publicités et du contenu."),
           "more": ("Avec votre permission, nos partenaires et nous-mêmes pouvons utiliser des données de "
                    "géolocalisation précises. Vous pouvez cliquer pour consentir aux traitements décrits ci-dessus "
                    "ou refuser. Vos choix s'appliqueront à ce site uniquement."),
           "purposes": ("Stocker et/ou accéder à des informations sur un appareil",
                        "Publicités et contenu personnalisés", "Mesure de performance des publicités et du contenu",
                        "Études d'audience", "Développement de services", "Utiliser des données de géolocalisation"),
           "buttons": ("Tout accepter", "Continuer sans accepter", "Paramétrer", "Afficher les finalités",
                       "Liste des partenaires", "Enregistrer", "Intérêt légitime", "Cookies nécessaires")},
    "es": {"title": "Valoramos tu privacidad",
           "intro": ("Nosotros y nuestros {n} socios almacenamos o accedemos a información en un dispositivo, como "
                     "cookies, y procesamos datos personales, como identificadores únicos e información estándar "
                     "enviada por un dispositivo, para anuncios y contenido personalizados y medición de anuncios."),
           "more": ("Con tu permiso, podemos utilizar datos de localización geográfica precisa. Puedes hacer clic para "
                    "otorgar tu consentimiento o acceder a información más detallada y cambiar tus preferencias."),
           "purposes": ("Almacenar o acceder a información en un dispositivo", "Anuncios y contenido personalizados",
                        "Medición de anuncios y del contenido", "Investigación de audiencia",
                        "Desarrollo de servicios", "Utilizar datos de localización geográfica precisa"),
           "buttons": ("Aceptar todo", "Rechazar todo", "Más opciones", "Ver finalidades", "Lista de socios",
                       "Guardar y salir", "Interés legítimo", "Cookies técnicas")},
    "it": {"title": "Rispettiamo la tua privacy",
           "intro": ("Noi e i nostri {n} partner archiviamo e/o accediamo a informazioni su un dispositivo, come i "
                     "cookie, e trattiamo dati personali, come gli identificativi univoci, per annunci e contenuti "
                     "personalizzati, valutazione degli annunci e del contenuto e osservazioni del pubblico."),
           "more": ("Con il tuo consenso potremmo utilizzare dati di geolocalizzazione precisi. Puoi modificare le "
                    "tue preferenze in qualsiasi momento dal link in fondo alla pagina."),
           "purposes": ("Archiviare e/o accedere a informazioni su un dispositivo",
                        "Annunci e contenuti personalizzati", "Valutazione degli annunci e del contenuto",
                        "Sviluppo di prodotti", "Dati di geolocalizzazione precisi"),
           "buttons": ("Accetta tutto", "Rifiuta", "Personalizza", "Mostra finalità", "Elenco partner", "Salva",
                       "Legittimo interesse")},
    "nl": {"title": "Wij hechten waarde aan uw privacy",
           "intro": ("Wij en onze {n} partners slaan informatie op een apparaat op en/of openen deze, zoals cookies, "
                     "en verwerken persoonsgegevens, zoals unieke identificatoren, voor gepersonaliseerde advertenties "
                     "en content, advertentie- en contentmeting en doelgroepinzichten."),
           "more": ("U kunt uw toestemming op elk moment intrekken via de link onderaan de pagina. Sommige partners "
                    "vragen geen toestemming maar baseren zich op gerechtvaardigd belang."),
           "purposes": ("Informatie op een apparaat opslaan en/of openen", "Gepersonaliseerde advertenties",
                        "Advertentie- en contentmeting", "Doelgroepinzichten", "Productontwikkeling"),
           "buttons": ("Alles accepteren", "Weigeren", "Instellingen", "Doeleinden tonen", "Partnerlijst",
                       "Opslaan", "Gerechtvaardigd belang")},
    "pl": {"title": "Szanujemy Twoją prywatność",
           "intro": ("My i nasi {n} partnerzy przechowujemy informacje na urządzeniu lub uzyskujemy do nich dostęp, "
                     "na przykład pliki cookie, i przetwarzamy dane osobowe, takie jak unikalne identyfikatory, w celu "
                     "wyświetlania spersonalizowanych reklam i treści oraz pomiaru reklam i treści."),
           "more": ("Za Twoją zgodą możemy wykorzystywać dokładne dane geolokalizacyjne. Możesz w każdej chwili "
                    "zmienić swoje ustawienia."),
           "purposes": ("Przechowywanie informacji na urządzeniu lub dostęp do nich",
                        "Spersonalizowane reklamy i treści", "Pomiar reklam i treści", "Badanie odbiorców",
                        "Rozwój usług"),
           "buttons": ("Akceptuję", "Odrzuć wszystko", "Ustawienia", "Pokaż cele", "Lista partnerów",
                       "Zapisz", "Uzasadniony interes")},
}
PAYWALL: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"head": ("Subscribe to continue reading", "This article is for subscribers only",
                    "You've reached your limit of free articles", "Unlock this story"),
           "body": ("Get unlimited digital access to award-winning journalism.", "Cancel anytime.",
                    "Already a subscriber? Log in", "Subscribe now", "Support independent journalism.",
                    "Create a free account to read 3 articles per month.", "Limited time offer",
                    "Billed as {price} every 4 weeks for the first year."),
           "plans": ("Digital Basic", "Digital All Access", "Print + Digital", "Annual plan", "Student")},
    "de": {"head": ("Weiterlesen mit Plus", "Dieser Artikel ist exklusiv für Abonnenten",
                    "Jetzt weiterlesen", "Sie haben Ihr Kontingent an freien Artikeln erreicht"),
           "body": ("Unbegrenzter Zugang zu allen Artikeln.", "Jederzeit kündbar.", "Schon Abonnent? Anmelden",
                    "Jetzt abonnieren", "Testen Sie 4 Wochen für {price}.", "Danach monatlich kündbar.",
                    "Qualitätsjournalismus hat seinen Preis."),
           "plans": ("Digital-Abo", "Plus Monatsabo", "Jahresabo", "E-Paper", "Studierende")},
    "fr": {"head": ("Cet article est réservé aux abonnés", "Il vous reste 80 % de cet article à lire",
                    "Abonnez-vous pour lire la suite"),
           "body": ("Accès illimité à tous les articles.", "Sans engagement.", "Déjà abonné ? Se connecter",
                    "Je m'abonne", "Offre spéciale : {price} le premier mois.", "Soutenez une information libre."),
           "plans": ("Numérique", "Intégrale", "Papier + numérique", "Offre annuelle")},
    "es": {"head": ("Contenido exclusivo para suscriptores", "Suscríbete para seguir leyendo",
                    "Has alcanzado el límite de artículos gratuitos"),
           "body": ("Acceso ilimitado a todos los contenidos.", "Cancela cuando quieras.",
                    "¿Ya eres suscriptor? Inicia sesión", "Suscribirme", "Primer mes por {price}.",
                    "Apoya el periodismo de calidad."),
           "plans": ("Digital", "Premium", "Papel + digital", "Anual")},
}
LOGIN: dict[str, tuple[str, ...]] = {
    "en": ("Sign in to continue", "Log in to view this content", "Members only", "Please log in", "Email or username",
           "Password", "Remember me", "Forgot your password?", "Log In", "Don't have an account? Sign up",
           "Continue with Google", "Continue with Apple", "Continue with Facebook", "Or", "Create account",
           "By continuing, you agree to our Terms of Service and Privacy Policy.", "Need help signing in?",
           "This page is only available to registered members.", "Your session has expired. Please sign in again."),
    "de": ("Bitte melden Sie sich an", "Anmelden, um fortzufahren", "Nur für Mitglieder", "E-Mail oder Benutzername",
           "Passwort", "Angemeldet bleiben", "Passwort vergessen?", "Anmelden", "Noch kein Konto? Registrieren",
           "Weiter mit Google", "Mit der Anmeldung akzeptieren Sie unsere AGB und Datenschutzbestimmungen.",
           "Ihre Sitzung ist abgelaufen."),
    "fr": ("Connectez-vous pour continuer", "Espace membres", "Adresse e-mail", "Mot de passe",
           "Se souvenir de moi", "Mot de passe oublié ?", "Se connecter", "Pas encore de compte ? Inscrivez-vous",
           "Continuer avec Google", "Votre session a expiré. Veuillez vous reconnecter."),
    "es": ("Inicia sesión para continuar", "Solo para miembros", "Correo electrónico", "Contraseña", "Recordarme",
           "¿Olvidaste tu contraseña?", "Iniciar sesión", "¿No tienes cuenta? Regístrate", "Continuar con Google",
           "Tu sesión ha caducado."),
    "pt": ("Faça login para continuar", "Área restrita", "E-mail", "Senha", "Lembrar de mim", "Esqueceu sua senha?",
           "Entrar", "Não tem uma conta? Cadastre-se", "Continuar com o Google", "Sua sessão expirou."),
}
AGE_GATE: dict[str, tuple[str, ...]] = {
    "en": ("Are you 18 or older?", "You must be of legal drinking age to enter this site.",
           "Please verify your age", "Enter your date of birth", "Month", "Day", "Year", "Yes, I am 18+",
           "No, exit", "By entering this site you agree to our Terms and Conditions.", "Remember me for 30 days",
           "This website contains age-restricted materials.", "Please drink responsibly.",
           "Sorry, you are not old enough to view this site."),
    "de": ("Bist du mindestens 18 Jahre alt?", "Bitte bestätige dein Alter", "Geburtsdatum eingeben", "Tag", "Monat",
           "Jahr", "Ja, ich bin volljährig", "Nein, verlassen", "Diese Website enthält Inhalte, die nur für "
           "Erwachsene bestimmt sind.", "Kein Verkauf an Personen unter 18 Jahren."),
    "fr": ("Avez-vous l'âge légal ?", "Veuillez confirmer votre âge", "Date de naissance", "Jour", "Mois", "Année",
           "Oui, j'ai plus de 18 ans", "Non, quitter", "L'abus d'alcool est dangereux pour la santé, à consommer avec "
           "modération.", "Ce site est réservé aux personnes majeures."),
    "es": ("¿Eres mayor de edad?", "Por favor, verifica tu edad", "Fecha de nacimiento", "Día", "Mes", "Año",
           "Sí, tengo 18 años o más", "No, salir", "Bebe con moderación. Prohibida su venta a menores de 18 años."),
}
ADBLOCK: dict[str, tuple[str, ...]] = {
    "en": ("Ad blocker detected", "It looks like you're using an ad blocker.",
           "We rely on ads to keep our content free. Please disable your ad blocker or whitelist our site.",
           "How do I disable my ad blocker?", "1. Click the ad blocker icon in your browser toolbar.",
           "2. Choose \"Pause on this site\" or \"Don't run on pages on this domain\".", "3. Refresh the page.",
           "I've disabled my ad blocker", "Continue without supporting us", "Or subscribe to go ad-free."),
    "de": ("Adblocker erkannt", "Sie verwenden einen Werbeblocker.",
           "Unsere Inhalte finanzieren sich über Werbung. Bitte deaktivieren Sie Ihren Adblocker.",
           "So deaktivieren Sie Ihren Adblocker", "Ich habe den Adblocker deaktiviert", "Werbefrei lesen mit Pur"),
    "fr": ("Bloqueur de publicité détecté", "Vous utilisez un bloqueur de publicités.",
           "La publicité nous permet de rester gratuits. Merci de désactiver votre bloqueur.",
           "Comment désactiver mon bloqueur ?", "J'ai désactivé mon bloqueur", "Ou abonnez-vous sans publicité."),
}
GEO_BLOCK: dict[str, tuple[str, ...]] = {
    "en": ("This content is not available in your country", "451: Unavailable due to legal reasons",
           "We recognize you are attempting to access this website from a country belonging to the European "
           "Economic Area (EEA) including the EU which enforces the General Data Protection Regulation (GDPR) and "
           "therefore access cannot be granted at this time.", "For any issues, contact us.",
           "Sorry, this video is not available in your region.", "The uploader has not made this video available "
           "in your country.", "Access from your location is restricted."),
    "de": ("Dieser Inhalt ist in Ihrem Land nicht verfügbar", "Leider ist dieses Video in Deutschland nicht "
           "verfügbar, da es Musik enthalten könnte, für die die erforderlichen Musikrechte nicht eingeräumt wurden.",
           "Der Zugriff aus Ihrer Region ist eingeschränkt."),
}

# -- error pages -------------------------------------------------------------------------------------------------
NOT_FOUND: dict[str, tuple[str, ...]] = {
    "en": ("Oops! That page can't be found.", "It looks like nothing was found at this location. Maybe try one of "
           "the links below or a search?", "Page not found", "Error 404", "Sorry, the page you are looking for "
           "does not exist, has been removed, had its name changed, or is temporarily unavailable.",
           "Go back to the homepage", "Nothing Found", "The requested URL was not found on this server.",
           "Lost? Try searching our site.", "404. That's an error."),
    "de": ("Seite nicht gefunden", "Die angeforderte Seite existiert leider nicht (mehr).", "Fehler 404",
           "Vielleicht hilft Ihnen die Suche weiter?", "Zur Startseite", "Hoppla! Diese Seite wurde nicht gefunden."),
    "fr": ("Page introuvable", "Oups ! La page que vous cherchez n'existe pas ou a été déplacée.", "Erreur 404",
           "Retour à l'accueil", "Essayez une recherche :"),
    "es": ("Página no encontrada", "Lo sentimos, la página que buscas no existe o ha sido movida.", "Error 404",
           "Volver al inicio", "Prueba a buscar:"),
    "it": ("Pagina non trovata", "Siamo spiacenti, la pagina che cerchi non esiste.", "Errore 404",
           "Torna alla home", "Prova a cercare:"),
    "nl": ("Pagina niet gevonden", "Sorry, de pagina die u zoekt bestaat niet (meer).", "Foutmelding 404",
           "Terug naar de homepage", "Probeer te zoeken:"),
    "pt": ("Página não encontrada", "Desculpe, a página que você procura não existe.", "Erro 404",
           "Voltar para a página inicial", "Tente pesquisar:"),
    "pl": ("Nie znaleziono strony", "Przepraszamy, strona, której szukasz, nie istnieje.", "Błąd 404",
           "Wróć na stronę główną", "Spróbuj wyszukać:"),
    "ru": ("Страница не найдена", "К сожалению, запрашиваемая страница не существует или была удалена.",
           "Ошибка 404", "Вернуться на главную", "Попробуйте воспользоваться поиском:"),
}
SOFT_404: dict[str, tuple[str, ...]] = {
    "en": ("No results found for \"{q}\"", "Sorry, no posts matched your criteria.", "This product is no longer "
           "available.", "This listing has expired.", "The item you requested could not be found.",
           "0 results", "Did you mean: {q2}?", "Try different keywords or browse our categories.",
           "This job posting is no longer accepting applications.", "This event has ended.",
           "The seller has removed this item.", "Showing 0 of 0 items"),
    "de": ("Keine Ergebnisse für „{q}“", "Dieser Artikel ist leider nicht mehr verfügbar.",
           "Dieses Inserat ist abgelaufen.", "0 Treffer", "Meinten Sie: {q2}?"),
    "fr": ("Aucun résultat pour « {q} »", "Ce produit n'est plus disponible.", "Cette annonce a expiré.",
           "0 résultat", "Vouliez-vous dire : {q2} ?"),
    "es": ("No hay resultados para \"{q}\"", "Este producto ya no está disponible.", "Este anuncio ha caducado.",
           "0 resultados", "¿Quisiste decir: {q2}?"),
}
SERVER_ERRORS = (
    (500, "Internal Server Error", "The server encountered an internal error or misconfiguration and was unable to "
     "complete your request."),
    (502, "Bad Gateway", "The proxy server received an invalid response from an upstream server."),
    (503, "Service Unavailable", "The server is temporarily unable to service your request due to maintenance "
     "downtime or capacity problems. Please try again later."),
    (504, "Gateway Time-out", "The server didn't respond in time."),
    (403, "Forbidden", "You don't have permission to access this resource."),
    (401, "Authorization Required", "This server could not verify that you are authorized to access the document "
     "requested."),
    (400, "Bad Request", "Your browser sent a request that this server could not understand."),
    (429, "Too Many Requests", "You have sent too many requests in a given amount of time."),
    (508, "Resource Limit Is Reached", "The website is temporarily unable to service your request as it exceeded "
     "resource limit. Please try again later."),
)
SERVER_SOFTWARE = ("nginx", "nginx/1.18.0 (Ubuntu)", "Apache/2.4.41 (Ubuntu) Server at {host} Port 443",
                   "Apache Server at {host} Port 80", "openresty", "cloudflare", "LiteSpeed Web Server",
                   "Microsoft-IIS/10.0", "Varnish cache server", "Tengine")
APP_ERRORS = ("Error establishing a database connection", "There has been a critical error on this website.",
              "Application Error", "An error occurred while processing your request.",
              "Whoops, looks like something went wrong.", "Server Error in '/' Application.",
              "Runtime Error", "Service Temporarily Unavailable", "Too many connections",
              "Internal error, please contact the administrator")
MAINTENANCE: dict[str, tuple[str, ...]] = {
    "en": ("We'll be back soon!", "Sorry for the inconvenience. We're performing some maintenance at the moment.",
           "Under construction", "Coming soon", "Our website is currently undergoing scheduled maintenance.",
           "We should be back shortly. Thank you for your patience.", "Briefly unavailable for scheduled maintenance. "
           "Check back in a minute.", "Something new is on its way. Stay tuned!", "Launching in"),
    "de": ("Wartungsarbeiten", "Wir sind bald wieder für Sie da!", "Unsere Website wird gerade überarbeitet.",
           "Hier entsteht eine neue Internetpräsenz.", "Vielen Dank für Ihre Geduld.", "Demnächst online"),
    "fr": ("Site en maintenance", "Nous serons bientôt de retour !", "Notre site est actuellement en cours de "
           "maintenance.", "Merci de votre patience.", "Bientôt disponible", "Site en construction"),
    "es": ("Sitio en mantenimiento", "¡Volvemos pronto!", "Estamos realizando tareas de mantenimiento.",
           "Gracias por tu paciencia.", "Próximamente", "Página en construcción"),
    "it": ("Sito in manutenzione", "Torneremo presto!", "Stiamo effettuando degli aggiornamenti.",
           "Grazie per la pazienza.", "Prossimamente online"),
    "pt": ("Site em manutenção", "Voltamos em breve!", "Estamos realizando uma manutenção programada.",
           "Obrigado pela paciência.", "Em breve"),
    "nl": ("Onderhoud", "We zijn zo terug!", "Onze website wordt momenteel vernieuwd.", "Bedankt voor uw geduld.",
           "Binnenkort online"),
}
PARKED: dict[str, tuple[str, ...]] = {
    "en": ("This domain may be for sale!", "{host} is for sale", "Buy this domain", "Make an offer",
           "Related searches", "Sponsored listings", "The owner of this domain has not yet uploaded their website.",
           "This domain is parked free of charge.", "Get this domain", "Inquire now", "Privacy Policy",
           "Copyright © {year} {host}. All rights reserved.", "This webpage was generated by the domain owner using "
           "a parking service.", "Domain registered. Website coming soon.", "Disclaimer: Domain owner and the "
           "parking service maintain no relationship with third party advertisers."),
    "de": ("Diese Domain steht zum Verkauf!", "{host} kaufen", "Jetzt Angebot abgeben", "Ähnliche Suchanfragen",
           "Gesponserte Links", "Diese Domain wurde registriert.", "Hier entsteht in Kürze eine neue Website."),
    "fr": ("Ce domaine est à vendre !", "Acheter {host}", "Faire une offre", "Recherches associées",
           "Liens sponsorisés", "Ce nom de domaine a été réservé."),
}
BOT_CHECK = (
    "Checking your browser before accessing {host}.", "This process is automatic. Your browser will redirect to your "
    "requested content shortly.", "Please allow up to 5 seconds…", "Verify you are human",
    "Please complete the security check to access {host}", "Enable JavaScript and cookies to continue",
    "{host} needs to review the security of your connection before proceeding.", "Ray ID: {ray}",
    "Performance & security by a content delivery network", "Why do I have to complete a CAPTCHA?",
    "Completing the CAPTCHA proves you are a human and gives you temporary access to the web property.",
    "Access denied", "Error code 1020", "You are being rate limited", "Your IP: {ip}", "Pardon Our Interruption",
    "As you were browsing something about your browser made us think you were a bot.",
    "Press & Hold to confirm you are a human (and not a bot).", "Reference ID {ref}", "DDoS protection by",
    "I'm not a robot", "Request unsuccessful. Incapsula incident ID: {ref}", "Please wait while we verify",
    "Just a moment...", "Waiting for {host} to respond...",
)
DEFAULT_PAGES = (
    ("Welcome to nginx!", ("If you see this page, the nginx web server is successfully installed and working. "
                           "Further configuration is required.", "For online documentation and support please refer "
                           "to the nginx website.", "Thank you for using nginx.")),
    ("Apache2 Ubuntu Default Page: It works", ("It works!", "This is the default welcome page used to test the "
                                               "correct operation of the Apache2 server after installation on Ubuntu "
                                               "systems.", "If you can read this page, it means that the Apache HTTP "
                                               "server installed at this site is working properly. You should "
                                               "replace this file (located at /var/www/html/index.html) before "
                                               "continuing to operate your HTTP server.",
                                               "Configuration Overview", "Document Roots", "Reporting Problems")),
    ("Test Page for the HTTP Server", ("This page is used to test the proper operation of the HTTP server after it "
                                       "has been installed. If you can read this page it means that the HTTP server "
                                       "installed at this site is working properly.", "If you are a member of the "
                                       "general public:", "The fact that you are seeing this page indicates that the "
                                       "website you just visited is either experiencing problems or is undergoing "
                                       "routine maintenance.", "If you are the website administrator:",
                                       "You may now add content to the webroot directory.")),
    ("IIS Windows Server", ("Internet Information Services", "Welcome", "Bienvenue", "Willkommen", "Bienvenido",
                            "Benvenuto", "Welkom", "Välkommen", "Witamy")),
    ("Default Web Site Page", ("Congratulations! Your hosting account is ready.", "If you are the owner of this "
                               "website, please upload your files to the public_html folder.",
                               "This page is generated automatically by the control panel.",
                               "Need help? Contact your hosting provider.")),
    ("Index of /", ()),
    ("Site not configured", ("This site has not been configured yet.", "Future home of something quite cool.",
                             "If you're the site owner, log in to launch this site.",
                             "Powered by your web host")),
)
DIR_FILES = ("index.php", "wp-config.php.bak", "readme.html", "license.txt", "uploads/", "cache/", "backup.zip",
             "old/", "images/", "css/", "js/", "favicon.ico", "robots.txt", ".htaccess.txt", "error_log",
             "db_dump.sql.gz", "test.php", "phpinfo.php", "style.css", "logo.png", "banner-1.jpg", "banner-2.jpg",
             "IMG_20190412_153211.jpg", "DSC00482.JPG", "report-final-v2.pdf", "invoice_2021.xlsx",
             "sitemap.xml", "feed/", "plugins/", "themes/", "tmp/", "node_modules/", "vendor/", "composer.json",
             "package.json", "dist/", "assets/", "fonts/", "video.mp4", "download.exe", "setup.msi")

# -- thin affiliate -------------------------------------------------------------------------------------------------
AFFIL_PRODUCTS_EN = ("air fryer", "robot vacuum", "gaming chair", "standing desk", "electric toothbrush",
                     "wireless earbuds", "espresso machine", "blender", "dash cam", "baby monitor", "pressure washer",
                     "cordless drill", "hair dryer", "yoga mat", "dehumidifier", "air purifier", "security camera",
                     "portable charger", "mechanical keyboard", "gaming mouse", "bluetooth speaker", "smart watch",
                     "running shoes for flat feet", "hiking backpack", "camping tent", "kayak paddle", "rice cooker",
                     "heated blanket", "water flosser", "office chair for back pain", "electric scooter",
                     "beard trimmer", "instant pot", "dog bed for large dogs", "cat litter box", "memory foam pillow",
                     "label maker", "label printer", "sewing machine for beginners", "telescope for kids")
AFFIL_I18N: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"title": ("Top {n} Best {P} in {year} (Reviews & Buying Guide)", "{n} Best {P} of {year} – Tested & "
                     "Reviewed", "The Best {P} {year}: Our Top {n} Picks", "Best {P} Under ${price} ({month} {year})"),
           "intro": ("Looking for the best {p}? We have researched and compared the top {p} on the market so you don't "
                     "have to.", "Choosing the right {p} can be difficult. That's why we made this list of the best "
                     "{p} available today.", "In this article we review the best {p} of {year}."),
           "pros": ("Easy to use", "Great value for money", "High quality", "Durable", "Stylish design",
                    "Lightweight", "Good customer service", "Fast shipping", "Many features", "Affordable"),
           "cons": ("None found", "A bit expensive", "Could be better", "Limited colors", "Some users report issues"),
           "buy": ("Check Price on Amazon", "View on Amazon", "Buy Now", "See Latest Price", "Check Availability"),
           "verdict": ("Overall, this is a great {p} and we highly recommend it.", "This {p} is the best choice for "
                       "most people.", "If you want a good {p}, this one is definitely worth it.",
                       "All in all, you can't go wrong with this {p}."),
           "labels": ("Best Overall", "Best Budget", "Best Premium", "Editor's Choice", "Best Value", "Runner Up")},
    "de": {"title": ("{P} Test {year} – Die {n} besten {P} im Vergleich", "Die {n} besten {P} {year}: Testsieger & "
                     "Vergleich", "{P} kaufen: Top {n} Bestseller {month} {year}"),
           "intro": ("Sie suchen einen guten {p}? Wir haben die besten Modelle für Sie verglichen.",
                     "In unserem {p} Vergleich finden Sie die Bestseller des Jahres {year}."),
           "pros": ("Einfache Bedienung", "Gutes Preis-Leistungs-Verhältnis", "Hochwertige Verarbeitung",
                    "Schöne Optik", "Leicht"),
           "cons": ("Keine bekannt", "Etwas teurer", "Wenige Farben"),
           "buy": ("Preis prüfen", "Bei Amazon ansehen", "Zum Angebot", "Jetzt kaufen"),
           "verdict": ("Insgesamt ein empfehlenswerter {p}.", "Für die meisten Nutzer die beste Wahl."),
           "labels": ("Testsieger", "Preis-Leistungs-Sieger", "Bestseller", "Unsere Empfehlung")},
    "fr": {"title": ("Meilleur {P} {year} : comparatif et avis", "Top {n} des meilleurs {P} en {year}",
                     "Comparatif {P} {year} : le guide d'achat"),
           "intro": ("Vous cherchez le meilleur {p} ? Nous avons comparé les modèles les plus populaires.",
                     "Voici notre sélection des meilleurs {p} de {year}."),
           "pros": ("Facile à utiliser", "Bon rapport qualité-prix", "Bonne qualité", "Design élégant"),
           "cons": ("Aucun", "Un peu cher", "Peu de coloris"),
           "buy": ("Voir le prix", "Voir sur Amazon", "Acheter maintenant"),
           "verdict": ("Au final, un excellent {p} que nous recommandons.", "Le meilleur choix pour la plupart."),
           "labels": ("Meilleur choix", "Meilleur rapport qualité-prix", "Premium", "Notre coup de cœur")},
    "es": {"title": ("Los {n} mejores {P} de {year}: comparativa y opiniones", "Mejor {P} {year} – Top {n} y guía de "
                     "compra", "Comparativa de {P} {year}"),
           "intro": ("¿Buscas el mejor {p}? Hemos comparado los modelos más vendidos.",
                     "Esta es nuestra selección de los mejores {p} de {year}."),
           "pros": ("Fácil de usar", "Buena relación calidad-precio", "Alta calidad", "Diseño bonito"),
           "cons": ("Ninguno", "Algo caro", "Pocos colores"),
           "buy": ("Ver precio", "Ver en Amazon", "Comprar ahora"),
           "verdict": ("En resumen, un gran {p} que recomendamos.", "La mejor opción para la mayoría."),
           "labels": ("Mejor en general", "Mejor calidad-precio", "Premium", "Nuestra elección")},
    "it": {"title": ("I {n} migliori {P} del {year}: classifica e opinioni", "Miglior {P} {year} – Guida all'acquisto"),
           "intro": ("Cerchi il miglior {p}? Abbiamo confrontato i modelli più venduti.",
                     "Ecco la nostra classifica dei migliori {p} del {year}."),
           "pros": ("Facile da usare", "Ottimo rapporto qualità-prezzo", "Alta qualità", "Design elegante"),
           "cons": ("Nessuno", "Un po' caro", "Pochi colori"),
           "buy": ("Vedi prezzo", "Vedi su Amazon", "Acquista ora"),
           "verdict": ("In conclusione, un ottimo {p} che consigliamo.", "La scelta migliore per la maggior parte."),
           "labels": ("Il migliore", "Miglior rapporto qualità-prezzo", "Premium", "La nostra scelta")},
}
AFFIL_PRODUCTS_I18N: dict[str, tuple[str, ...]] = {
    "de": ("Heißluftfritteuse", "Saugroboter", "Gaming Stuhl", "Akkuschrauber", "Kaffeevollautomat", "Luftreiniger",
           "Elektrische Zahnbürste", "Hochdruckreiniger", "Babyphone", "Bluetooth Lautsprecher"),
    "fr": ("friteuse sans huile", "aspirateur robot", "chaise gaming", "perceuse visseuse", "machine à café",
           "purificateur d'air", "brosse à dents électrique", "nettoyeur haute pression", "babyphone"),
    "es": ("freidora de aire", "robot aspirador", "silla gaming", "taladro percutor", "cafetera superautomática",
           "purificador de aire", "cepillo eléctrico", "hidrolimpiadora", "vigilabebés"),
    "it": ("friggitrice ad aria", "robot aspirapolvere", "sedia gaming", "trapano avvitatore", "macchina del caffè",
           "purificatore d'aria", "spazzolino elettrico", "idropulitrice", "baby monitor"),
}
BRAND_SYLLABLES = ("vor", "nex", "kel", "var", "tri", "zen", "lu", "max", "ora", "pix", "tek", "bro", "qua", "sol",
                   "vio", "ar", "den", "fi", "go", "hom", "ion", "jet", "ko", "lix", "mo", "nu", "ox", "pro", "ry",
                   "sy", "tu", "ul", "vo", "wi", "xo", "yu", "za")
COUPON_WORDS = ("SAVE{n}", "WELCOME{n}", "EXTRA{n}", "FREESHIP", "SPRING{n}", "VIP{n}", "FLASH{n}", "TAKE{n}",
                "NEW{n}", "HOLIDAY{n}", "BLACKFRIDAY", "CYBER{n}", "STUDENT{n}", "APP{n}", "FIRST{n}", "BOGO")
COUPON_LABELS = ("{n}% Off Sitewide", "Free Shipping on Orders Over ${m}", "${m} Off Your First Order",
                 "Up to {n}% Off Clearance", "Buy One Get One Free", "{n}% Off for Students",
                 "Extra {n}% Off Sale Items",
                 "Free Gift with Purchase", "{n}% Off Your Order with Email Signup", "Flash Sale: {n}% Off Today Only")
COUPON_META = ("Verified", "Used {u} times", "Expires {date}", "Added {d} days ago", "Get Code", "Get Deal",
               "Show Coupon Code", "Success rate {s}%", "Exclusive", "Ends soon", "Last used {h} hours ago")
STORE_NAMES = ("Brightmart", "Kelvora Home", "Nuvo Outfitters", "Zentrix Electronics", "Tidebay Apparel",
               "Luma Beauty Co", "Quickcart", "Velvet Fox", "Oakridge Supply", "PixelPeak", "Harbor & Finch",
               "Solara Skincare", "UrbanNest", "Trailhound Gear", "Maple Lane Kids", "Glowbox", "Fitforge",
               "Cobalt Coffee", "Driftwood Decor", "PetPal Plus")
SHOP_NAMES = ("ShopRank", "PriceHawk", "DealBarn", "Bargainly", "Kaufpilot", "PrixMalin", "ChollosYa", "CompraBene",
              "BestPreis24", "MegaDeals", "Shoplio", "Vendora")

# -- autogenerated data -------------------------------------------------------------------------------------------
ISP_NAMES = ("Northwind Broadband", "Skyline Telecom", "Bluewave Networks", "Rapidlink Internet", "Coastal Fiber LLC",
             "Metro Cable Co", "Continental Data Services", "Hostlane Ltd", "Digitalriver Hosting", "Andes Net SA",
             "Nordnet AB", "Eurolink GmbH", "Pacifica Mobile", "Sunrise Wireless", "Vertex Cloud Inc")
COUNTRIES = (("United States", "US"), ("Germany", "DE"), ("France", "FR"), ("Netherlands", "NL"),
             ("United Kingdom", "GB"), ("Brazil", "BR"), ("India", "IN"), ("Japan", "JP"), ("Canada", "CA"),
             ("Russia", "RU"), ("Poland", "PL"), ("Spain", "ES"), ("Italy", "IT"), ("Turkey", "TR"),
             ("Indonesia", "ID"), ("Australia", "AU"), ("Vietnam", "VN"), ("Mexico", "MX"))
US_STATES = ("Alabama", "Arizona", "California", "Colorado", "Florida", "Georgia", "Illinois", "Indiana", "Kansas",
             "Kentucky", "Michigan", "Minnesota", "Missouri", "Nevada", "New York", "North Carolina", "Ohio", "Oregon",
             "Pennsylvania", "Tennessee", "Texas", "Utah", "Virginia", "Washington", "Wisconsin")
CALLER_COMMENTS = ("Got a call from this number, nobody said anything.", "Scam! They said my car warranty expired.",
                   "Robocall about student loans.", "Called 3 times today, no voicemail.",
                   "Claimed to be from the IRS. Hung up.", "Unknown caller, blocked.", "Telemarketer selling solar.",
                   "Silent call.", "They asked for my bank details!!!", "Survey call, annoying.",
                   "Delivery notification? Not sure.", "Said I won a cruise lol", "Who is this??")
MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
           "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre",
           "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"),
    "pl": ("styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień", "wrzesień",
           "październik", "listopad", "grudzień"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"),
}
WEEKDAYS: dict[str, tuple[str, ...]] = {
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), "de": ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"),
    "fr": ("lun", "mar", "mer", "jeu", "ven", "sam", "dim"), "es": ("lun", "mar", "mié", "jue", "vie", "sáb", "dom"),
    "it": ("lun", "mar", "mer", "gio", "ven", "sab", "dom"), "pl": ("pon", "wt", "śr", "czw", "pt", "sob", "niedz"),
    "nl": ("ma", "di", "wo", "do", "vr", "za", "zo"),
}
CALENDAR_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("Calendar", "Week", "Holidays", "Moon phases", "Printable calendar", "Day of the year", "Full moon",
           "New moon", "First quarter", "Last quarter", "Sunrise", "Sunset", "Download PDF"),
    "de": ("Kalender", "KW", "Feiertage", "Mondphasen", "Kalender zum Ausdrucken", "Tag des Jahres", "Vollmond",
           "Neumond", "Erstes Viertel", "Letztes Viertel", "Sonnenaufgang", "Sonnenuntergang", "PDF herunterladen"),
    "fr": ("Calendrier", "Semaine", "Jours fériés", "Phases de la lune", "Calendrier à imprimer", "Jour de l'année",
           "Pleine lune", "Nouvelle lune", "Premier quartier", "Dernier quartier", "Lever du soleil",
           "Coucher du soleil", "Télécharger le PDF"),
    "es": ("Calendario", "Semana", "Festivos", "Fases lunares", "Calendario para imprimir", "Día del año",
           "Luna llena", "Luna nueva", "Cuarto creciente", "Cuarto menguante", "Amanecer", "Atardecer",
           "Descargar PDF"),
    "it": ("Calendario", "Settimana", "Festività", "Fasi lunari", "Calendario da stampare", "Giorno dell'anno",
           "Luna piena", "Luna nuova", "Primo quarto", "Ultimo quarto", "Alba", "Tramonto", "Scarica PDF"),
    "pl": ("Kalendarz", "Tydzień", "Święta", "Fazy księżyca", "Kalendarz do druku", "Dzień roku", "Pełnia",
           "Nów", "Pierwsza kwadra", "Ostatnia kwadra", "Wschód słońca", "Zachód słońca", "Pobierz PDF"),
    "nl": ("Kalender", "Week", "Feestdagen", "Maanfasen", "Kalender printen", "Dag van het jaar", "Volle maan",
           "Nieuwe maan", "Eerste kwartier", "Laatste kwartier", "Zonsopkomst", "Zonsondergang", "PDF downloaden"),
}
DOMAIN_STATS = ("Estimated worth", "Daily unique visitors", "Daily pageviews", "Daily ad revenue", "Global rank",
                "Country rank", "Domain age", "Registrar", "Nameservers", "IP address", "Server location",
                "Hosting provider", "Load time", "Page size", "Backlinks", "Domain authority", "Safety status",
                "Google index", "Bing index", "Social shares", "SSL certificate", "Title tag", "Meta description",
                "H1 tags", "Images without alt", "Text/HTML ratio", "Keyword density", "WWW resolve",
                "robots.txt", "XML sitemap", "Mobile friendly", "Doctype", "Encoding", "Server IP", "Whois")
WORD_TOOL_HEADS = ("Words that start with {x}", "Words ending in {x}", "Anagrams of {x}", "Words containing {x}",
                   "Rhymes with {x}", "Unscramble {x}", "Scrabble words from {x}", "{n} letter words with {x}")

# -- forum / comment spam ------------------------------------------------------------------------------------------
PRAISE_EN = (
    "Great post! Thanks for sharing this useful information.", "I have been browsing online more than 3 hours today, "
    "yet I never found any interesting article like yours.", "Hi there, just wanted to say I really enjoyed this "
    "article. I will bookmark your blog and check again here frequently.", "Very nice write-up. I definitely "
    "appreciate this site. Keep it up!", "Wow, awesome blog layout! How long have you been blogging for?",
    "Thanks for the marvelous posting! I certainly enjoyed reading it, you happen to be a great author.",
    "Hello! I could have sworn I've been to this blog before but after browsing through some of the posts I realized "
    "it's new to me.", "This is really interesting, You're a very skilled blogger. I have joined your feed.",
    "Its like you read my mind! You appear to know so much about this.", "Nice article, very informative. "
    "Visit my website too.", "I was suggested this web site by my cousin. I'm not sure whether this post is written "
    "by him as nobody else know such detailed about my difficulty.", "Excellent post. I was checking continuously "
    "this blog and I'm impressed!", "Hey would you mind letting me know which webhost you're using?",
    "Does your website have a contact page? I'm having a tough time locating it but, I'd like to send you an email.",
    "Pretty section of content. I just stumbled upon your site and in accession capital to assert that I acquire "
    "actually enjoyed account your blog posts.", "Keep on writing, great job!", "What's up mates, its impressive "
    "post about educating and fully defined, keep it up all the time.", "Appreciate this post. Let me try it out.",
    "I love what you guys are usually up too. Such clever work and exposure!", "Thank you for some other "
    "informative blog. Where else may I get that type of info written in such an ideal method?",
    "Heya i'm for the first time here. I came across this board and I find It really useful.",
)
PRAISE_I18N: dict[str, tuple[str, ...]] = {
    "de": ("Toller Beitrag, danke fürs Teilen!", "Sehr informativ, weiter so!", "Super Seite, habe sie gleich "
           "gebookmarkt.", "Danke für die Infos, hat mir sehr geholfen."),
    "fr": ("Super article, merci pour le partage !", "Très intéressant, continuez comme ça !",
           "Merci pour ces informations, très utile.", "Excellent blog, je reviendrai."),
    "es": ("¡Gran artículo, gracias por compartir!", "Muy interesante, sigue así.", "Excelente información, "
           "muchas gracias.", "Me encanta tu blog, volveré pronto."),
    "ru": ("Спасибо, очень полезная статья!", "Отличный пост, автору респект.", "Интересно, добавил в закладки.",
           "Благодарю за информацию!"),
    "id": ("Artikel yang sangat bermanfaat, terima kasih!", "Mantap gan, lanjutkan!", "Infonya sangat membantu.",
           "Keren, ditunggu update selanjutnya."),
    "pl": ("Świetny wpis, dzięki!", "Bardzo ciekawy artykuł.", "Dzięki za info, przyda się.", "Super blog!"),
}
SPAM_POST_EN = (
    "Buy {anchor} at the lowest price, fast delivery worldwide: {link}", "Hello! Check {link} for {anchor}, "
    "best offer!!!", "I found {anchor} here {link} works 100%", "{anchor} {anchor} {anchor} {link}",
    "Need {anchor}? Contact us on WhatsApp +{phone}", "Get {anchor} now >>> {link} <<<",
    "Earn $500 per day from home! No experience needed. Details: {link}",
    "Call {brand} support number +1-{phone} for instant help with {brand} errors, 24/7 toll free.",
    "Dear friend, i want to share my testimony of how i got my ex back with the help of a great spell caster. "
    "Contact him on {email}", "Thanks for the info. By the way, {anchor} is available at {link}",
    "Are you looking for {anchor}? We offer {anchor} without prescription. Order: {link}",
)
SPAM_POST_I18N: dict[str, tuple[str, ...]] = {
    "ru": ("Купить {anchor} недорого здесь: {link}", "Лучший сайт {anchor} — {link}", "Всем привет! {anchor} {link}"),
    "id": ("Daftar {anchor} sekarang di {link} dijamin maxwin!", "Bosku, {anchor} terpercaya cuma di {link}",
           "Info {anchor} hari ini: {link}"),
    "de": ("{anchor} hier günstig: {link}", "Super Angebot für {anchor}: {link}"),
    "fr": ("Trouvez {anchor} ici : {link}", "Le meilleur site pour {anchor} : {link}"),
    "es": ("Consigue {anchor} aquí: {link}", "La mejor web de {anchor}: {link}"),
    "pl": ("Najlepsze {anchor} tutaj: {link}",), "tr": ("{anchor} için tıkla: {link}", "En iyi {anchor} {link}"),
    "pt": ("Confira {anchor} aqui: {link}",),
}
SUPPORT_BRANDS = ("QuickLedger", "PrintJet", "RouterMax", "MailBox Pro", "AntiVir Shield", "CloudDrive", "Flyaway Air",
                  "CashApp Wallet", "SmartTV Hub", "BankEasy")
USER_SYLLABLES = ("john", "mike", "anna", "kate", "alex", "max", "lena", "sam", "dave", "tom", "lisa", "joe", "nina",
                  "paul", "vera", "ivan", "olga", "budi", "dewi", "hans", "ali", "mehmet", "pierre", "marie", "jose",
                  "luca", "piotr", "best", "seo", "cheap", "pro", "super", "top", "xx", "casino", "loan", "shop")
FORUM_BITS = ("Re:", "Quote", "Reply", "Report", "Joined:", "Posts:", "Location:", "Top", "Post subject:",
              "Posted:", "Offline", "Online", "Thanks", "Like", "Member", "Junior Member", "Newbie", "Guest",
              "Registered User", "Banned")
GUESTBOOK_BITS = ("Sign the guestbook", "Entries", "Name:", "Homepage:", "From:", "Message:", "Date:",
                  "Admin reply:", "Page {n} of {m}", "Next »", "« Previous")

# -- scraped fragments -------------------------------------------------------------------------------------------
SCRAPE_INSERTS_EN = (
    "Click here to download {kw} for free!", ">> Get {kw} now <<", "Sponsored: The best {kw} deals of the year",
    "Advertisement", "Continue reading below", "[Download PDF] {kw} full version", "Related: {kw} 2025",
    "Also read: Top 10 {kw} you must know", "Watch the video: {kw} explained", "Hot: {kw} (100% working)",
    "{kw} – free trial available", "This content was automatically aggregated.", "Read full story",
)
SCRAPE_LABELS: dict[str, tuple[str, ...]] = {
    "en": ("Source:", "Via", "Read more at", "Originally posted on", "Credit:", "From", "Full article:"),
    "de": ("Quelle:", "Via", "Weiterlesen auf", "Zuerst erschienen auf"),
    "fr": ("Source :", "Via", "Lire la suite sur", "Publié initialement sur"),
    "es": ("Fuente:", "Vía", "Leer más en", "Publicado originalmente en"),
    "it": ("Fonte:", "Via", "Continua a leggere su"), "pt": ("Fonte:", "Via", "Leia mais em"),
    "nl": ("Bron:", "Via", "Lees verder op"), "pl": ("Źródło:", "Przez", "Czytaj więcej na"),
    "ru": ("Источник:", "Via", "Подробнее на"), "tr": ("Kaynak:", "Via", "Devamı için"),
    "id": ("Sumber:", "Via", "Baca selengkapnya di"),
}
TIME_AGO = ("{n} minutes ago", "{n} hours ago", "{n} days ago", "1 week ago", "yesterday", "just now")

# -- encoding garbage --------------------------------------------------------------------------------------------
KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890", "qwertzuiop", "yxcvbnm", "azertyuiop",
                 "qsdfghjklm", "wxcvbn", "йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю",
                 "ㅂㅈㄷㄱㅅㅛㅕㅑ", "ㅁㄴㅇㄹㅎㅗㅓㅏ")
MASH_BITS = ("asdf", "jkl;", "sdfsdf", "dfgdfg", "ghjk", "fghfgh", "lol", "hjhjhj", "aaaaaa", "kkkkk", "ghj", "xdxd",
             "zzzz", "jajaja", "hahaha", "ффф", "ыыыы", "ололо", "asdasd", "qweqwe", "123123", "wqeqwe", "dsfsdf")
# (encoding, decoded_as) pairs for mojibake: bytes in the first, read as the second
MOJIBAKE_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "latin": (("utf-8", "cp1252"), ("utf-8", "latin-1"), ("cp1252", "utf-8-replace"), ("utf-8", "mac_roman")),
    "cyrillic": (("cp1251", "cp1252"), ("utf-8", "cp1252"), ("koi8-r", "cp1251"), ("cp1251", "utf-8-replace"),
                 ("utf-8", "cp1251")),
    "greek": (("iso8859-7", "cp1252"), ("utf-8", "cp1252")),
    "cjk": (("shift_jis", "cp1252"), ("gbk", "latin-1"), ("utf-8", "cp1252"), ("euc-kr", "cp1252"),
            ("shift_jis", "utf-8-replace"), ("gbk", "utf-8-replace")),
    "other": (("utf-8", "cp1252"), ("utf-8", "latin-1"), ("utf-8", "cp1250")),
}

# -- hosts and site furniture (made up) ----------------------------------------------------------------------------
HOST_WORDS: dict[str, tuple[str, ...]] = {
    "keyword_stuffing": ("pro", "best", "local", "fix", "care", "expert", "24", "rapid", "city", "quick", "team",
                         "direct", "now", "first", "ace", "prime"),
    "word_salad": ("info", "world", "daily", "news", "hub", "portal", "wiki", "point", "base", "net", "zone",
                   "story", "times", "post", "insight", "guru"),
    "link_farm": ("links", "dir", "rank", "seo", "web", "list", "top", "submit", "index", "sites", "partner",
                  "friends", "blogroll", "exchange", "page", "listing"),
    "lorem_or_template": ("studio", "demo", "theme", "starter", "design", "creative", "agency", "pixel", "launch",
                          "site", "builder", "my", "new", "test", "sample", "portfolio"),
    "repeated_boilerplate": ("blog", "daily", "life", "mom", "tips", "home", "kitchen", "style", "hacks", "diy",
                             "journal", "notes", "corner", "world", "living", "buzz"),
    "cookie_or_login_wall": ("times", "herald", "courier", "tribune", "post", "observer", "gazette", "members",
                             "portal", "club", "account", "cellar", "vape", "reader", "premium", "press"),
    "error_page": ("shop", "store", "company", "group", "solutions", "media", "online", "service", "systems",
                   "hosting", "web", "app", "cloud", "digital", "tech", "center"),
    "thin_affiliate": ("review", "reviews", "best", "top", "picks", "guide", "deals", "coupon", "compare", "buyer",
                       "gear", "lab", "choice", "rated", "savings", "promo"),
    "autogenerated_data": ("lookup", "whois", "stats", "ip", "phone", "who", "calls", "zip", "codes", "worth",
                           "rank", "site", "calendar", "days", "word", "finder"),
    "forum_or_comment_spam": ("forum", "board", "talk", "community", "club", "fans", "guestbook", "chat", "lounge",
                              "garage", "owners", "hobby", "group", "discuss", "corner", "cafe"),
    "scraped_fragments_spam": ("news", "feed", "buzz", "trend", "viral", "now", "digest", "wire", "today", "hub",
                               "radar", "headlines", "daily", "pulse", "updates", "ticker"),
    "encoding_garbage": ("old", "archive", "files", "home", "page", "site", "docs", "data", "mirror", "legacy",
                         "public", "static", "users", "members", "ftp", "web"),
}
HOST_FILLERS = ("garden", "auto", "health", "money", "travel", "tech", "pet", "home", "food", "fashion", "bike",
                "craft", "photo", "music", "game", "sport", "baby", "wedding", "solar", "roof", "law", "dental",
                "fit", "green", "smart", "blue", "red", "north", "sun", "river", "oak", "nova", "alpha", "metro")
LANG_TLDS: dict[str, tuple[str, ...]] = {
    "en": ("com", "com", "net", "org", "info", "co.uk", "com.au", "us", "online", "site", "xyz", "blog", "io", "co"),
    "de": ("de", "de", "at", "ch", "com", "net", "info"), "fr": ("fr", "fr", "be", "ch", "com", "net"),
    "es": ("es", "es", "com.mx", "com.ar", "com", "net"), "it": ("it", "it", "com", "net"),
    "nl": ("nl", "nl", "be", "com"), "pl": ("pl", "pl", "com.pl", "eu"), "pt": ("com.br", "com.br", "pt", "com"),
    "ru": ("ru", "ru", "su", "com", "net", "org"), "tr": ("com.tr", "net", "com", "org"),
    "id": ("co.id", "id", "com", "xyz", "online", "net"), "ja": ("jp", "co.jp", "com"), "zh": ("cn", "com.cn", "com"),
    "ko": ("kr", "co.kr", "com"), "uk": ("ua", "com.ua", "com"), "vi": ("vn", "com.vn", "com"),
}
CMS_GENERATORS = ("Pressbox 6.4.2", "Inkwell CMS 3.1", "Quillstack 2.8", "Pagewright 5.0", "SiteForge 9.2",
                  "Blogmill 4.7", "Nimbus Builder", "Corvid Pages 1.9", "Tessera CMS 12", "Brickyard 7.3")
THEME_NAMES = ("flavor", "astra-lite", "newsmag", "twentyone", "magazine-pro", "bricks", "oceanic", "minimalist",
               "starter-theme", "zenblog", "bizpro", "hello-theme", "flatsome-child", "divine")
FOOTER_POWERED = ("Powered by {cms}", "Theme: {theme} by ThemeGrill", "Proudly powered by {cms}",
                  "Designed by {host}", "Made with ♥ by Webagentur", "Site by Pixel & Co.", "Hosted by Hostlane")
VISIT_COUNTERS = ("Visitors: {n}", "You are visitor number {n}", "Hits: {n}", "Online: {m} | Today: {n}")

# -- word salad ---------------------------------------------------------------------------------------------------
# a word spinner's "synonyms" (the tortured phrases of machine-spun and machine-translated text)
SPIN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "big": ("colossal", "enormous"), "data": ("information", "realities"), "artificial": ("counterfeit", "fake"),
    "intelligence": ("consciousness", "knowledge"), "deep": ("profound",), "learning": ("picking up", "learning"),
    "people": ("individuals", "folks", "people groups"), "important": ("significant", "vital", "imperative"),
    "help": ("assist", "help out", "aid"), "use": ("utilize", "employ", "make use of"), "make": ("create", "produce"),
    "good": ("great", "decent", "acceptable"), "best": ("most ideal", "greatest", "finest"),
    "get": ("acquire", "obtain"),
    "new": ("novel", "fresh", "new-fangled"), "time": ("period", "second", "moment"), "work": ("function", "toil"),
    "home": ("abode", "dwelling"), "car": ("vehicle", "motor vehicle", "automobile"), "money": ("cash", "funds"),
    "year": ("twelve months", "season"), "day": ("daytime", "time"), "way": ("method", "manner", "avenue"),
    "find": ("locate", "discover", "uncover"), "need": ("require", "necessity"), "many": ("numerous", "a lot of"),
    "also": ("additionally", "likewise"), "very": ("extremely", "quite", "truly"), "great": ("wonderful", "fantastic"),
    "easy": ("effortless", "simple"), "fast": ("quick", "speedy", "rapid"), "world": ("globe", "planet"),
    "company": ("firm", "organization", "business enterprise"), "business": ("company", "organisation"),
    "computer": ("pc", "computer system"), "mobile": ("portable", "cellular"), "phone": ("telephone", "mobile"),
    "website": ("internet site", "web site", "site"), "online": ("on the internet", "on-line", "web-based"),
    "free": ("totally free", "cost-free", "complimentary"), "health": ("wellness", "well-being"),
    "food": ("meals", "nourishment"), "water": ("h2o", "water supply"), "body": ("entire body", "physique"),
    "start": ("commence", "begin"), "end": ("finish", "conclusion"), "buy": ("purchase", "acquire"),
    "really": ("actually", "genuinely"), "think": ("believe", "feel"), "know": ("understand", "recognize"),
    "look": ("seem", "appear"), "want": ("wish", "desire"), "problem": ("issue", "trouble", "difficulty"),
    "cancer": ("most cancers",), "machine": ("device", "appliance"), "network": ("system", "community"),
    "family": ("household", "loved ones"), "child": ("youngster", "kid"), "children": ("youngsters", "kids"),
    "house": ("residence", "property"), "small": ("little", "tiny", "modest"), "large": ("huge", "substantial"),
    "high": ("higher", "excessive"), "quality": ("high quality", "top quality"), "price": ("cost", "value"),
    "show": ("display", "exhibit"), "information": ("info", "details"),
    "article": ("post", "write-up", "short article"),
}
# the nouns and adjectives of marketplace product titles, piled up without grammar
PRODUCT_PILE_EN = ("New", "Hot", "Sale", "2024", "2025", "Upgraded", "Portable", "Mini", "Wireless", "Bluetooth",
                   "LED", "Light", "Lamp", "Solar", "Outdoor", "Waterproof", "Garden", "Yard", "Decoration",
                   "Women", "Men", "Kids", "Fashion", "Casual", "Summer", "Winter", "Dress", "Shirt", "Shoes",
                   "Sneakers", "Breathable", "Running", "Sports", "Car", "Phone", "Holder", "Mount", "Magnetic",
                   "Charger", "USB", "Type-C", "Fast", "Charging", "Cable", "Kitchen", "Gadget", "Tool", "Set",
                   "Stainless", "Steel", "Silicone", "Storage", "Box", "Organizer", "Home", "Office", "Gift",
                   "Pcs", "Lot", "Wholesale", "Free Shipping", "Dropshipping", "Original", "Genuine", "Premium",
                   "Luxury", "Smart", "Watch", "Fitness", "Tracker", "Pet", "Dog", "Cat", "Toy", "Baby",
                   "Cute", "Cartoon", "Anime", "Cosplay", "Makeup", "Brush", "Hair", "Wig", "Nail", "Art")
PRODUCT_PILE_I18N: dict[str, tuple[str, ...]] = {
    "de": ("Neu", "Damen", "Herren", "Kinder", "Sommer", "Winter", "Kleid", "Schuhe", "Laufschuhe", "Wasserdicht",
           "Garten", "Solar", "Lampe", "Außen", "LED", "Edelstahl", "Küche", "Set", "Geschenk", "Original",
           "Tragbar", "Kabellos", "Ladegerät", "Halterung", "Auto", "Handy", "Hülle", "Schutz", "Glas", "Premium"),
    "es": ("Nuevo", "Mujer", "Hombre", "Niños", "Verano", "Vestido", "Zapatos", "Zapatillas", "Impermeable",
           "Jardín", "Solar", "Lámpara", "Exterior", "LED", "Acero", "Inoxidable", "Cocina", "Juego", "Regalo",
           "Portátil", "Inalámbrico", "Cargador", "Soporte", "Coche", "Móvil", "Funda", "Protector", "Original"),
    "fr": ("Nouveau", "Femme", "Homme", "Enfant", "Été", "Robe", "Chaussures", "Baskets", "Étanche", "Jardin",
           "Solaire", "Lampe", "Extérieur", "LED", "Inox", "Cuisine", "Lot", "Cadeau", "Portable", "Sans Fil",
           "Chargeur", "Support", "Voiture", "Téléphone", "Coque", "Protection", "Original", "Luxe"),
    "pt": ("Novo", "Feminino", "Masculino", "Infantil", "Verão", "Vestido", "Tênis", "Sapato", "Impermeável",
           "Jardim", "Solar", "Luminária", "Externa", "LED", "Inox", "Cozinha", "Kit", "Presente", "Portátil",
           "Sem Fio", "Carregador", "Suporte", "Carro", "Celular", "Capinha", "Película", "Original", "Promoção"),
}
# machine-translated-looking sentence frames ({a} {b} {c}: content words of the page's language)
MT_FRAMES_EN = ("The {a} is very {b} for {c} of you.", "You can {a} the {b} with {c} and it will be more {a}.",
                "This {a} of {b} makes your {c} be good at once.", "If {a} then {b}, so {c} is the {a}.",
                "Please to {a} the {b} for {c} more happy.", "It is {a} that {b} have {c} in the same {a}.",
                "{a} and {b} is the most {c} way for {a} in now.", "When the {a} {b}, the {c} will {a} it self.",
                "Our {a} give to you {b} {c} in the {a} time.", "For {a} {b} people it is {c} to {a}.")

# -- link farms, spam hosts ---------------------------------------------------------------------------------------
LINK_DESCRIPTIONS_EN = ("The best site for {a}. Visit now!", "Top quality {a} at the lowest prices.",
                        "Your number one source for {a} and {b}.", "Trusted {a} provider since 2010.",
                        "Find {a}, {b} and more.", "Cheap {a} – fast and easy.", "{a} reviews, tips and deals.",
                        "Official site of {a}.", "Get {a} today, 100% guaranteed.", "Free {a} for everyone.")
LINK_EXCHANGE_BITS = ("Add your link", "Submit URL", "Link to us", "Our banner:", "PR", "DA", "Alexa", "Added",
                      "Reciprocal link required", "Copy the code below and put it on your site", "Category",
                      "Featured listing", "Paid listing", "Free listing", "Backlink check", "Status: approved",
                      "Clicks", "Rating", "Broken link? Report it")

# -- consent wall vendors (made up) -------------------------------------------------------------------------------
AD_VENDORS = ("Adverity Exchange", "BidSwitch Media", "Clickpoint Ltd", "Datavault Analytics", "Equinox Ads SAS",
              "Flowmetrics GmbH", "Gridline Advertising", "Hypernova Tag", "Impactrix Inc.", "Jellyfish Audience",
              "Keystone DSP", "Lumen Retargeting", "Metricon BV", "Nexus Header Bidding", "Orbital Reach",
              "Pixelhaus Tracking", "Quantex Measurement", "Rubicorp", "Sapient Segments", "Tapwave Mobile",
              "Unity Ad Cloud", "Vantage Identity", "Wavelength Data", "Xandria Media", "Yieldmo Partners",
              "Zenith Audience Network")

# -- affiliate ------------------------------------------------------------------------------------------------------
SPEC_LABELS_EN = ("Brand", "Model", "Color", "Weight", "Dimensions", "Material", "Power", "Warranty", "Rating",
                  "Price", "Availability", "Item model number", "Customer reviews", "Best Sellers Rank")
PRICE_CMP_BITS = ("Compare prices", "Lowest price", "Price history", "Set price alert", "incl. VAT", "In stock",
                  "Out of stock", "Delivery: 1-3 days", "Free delivery", "Go to shop", "{n} offers",
                  "Last updated: {h} hours ago", "Price may have changed", "Sort by: price")

# -- autogenerated data ---------------------------------------------------------------------------------------------
SERP_BITS = ("About {n} results ({t} seconds)", "People also ask", "Related searches", "Images", "Videos", "News",
             "Shopping", "Maps", "Next", "Cached", "Similar", "Translate this page")
PHONE_BITS = ("Who called me from {num}?", "Reports for {num}", "Rating", "Safe", "Unsafe", "Dangerous", "Neutral",
              "Searches", "Last searched", "Area code {ac}", "Carrier", "Line type", "Wireless", "Landline", "VoIP",
              "Location", "Add a comment", "Is this number safe?", "Alternative formats")
IP_BITS = ("IP address details", "Hostname", "ISP", "Organization", "ASN", "Country", "Region", "City", "Latitude",
           "Longitude", "Time zone", "Postal code", "Proxy", "VPN", "Tor", "Blacklist status", "Reverse DNS",
           "Map", "Nearby IP addresses", "IPv4", "IPv6", "Connection type", "Usage type")

# -- forum spam ---------------------------------------------------------------------------------------------------
FORUM_THREAD_TITLES_EN = ("Help with my {thing}", "Anyone know a good {thing}?", "Best {thing} for beginners?",
                          "{thing} problem after update", "Introduce yourself here", "Off-topic chat",
                          "New member here!", "Where to buy {thing}?", "{thing} not working", "General discussion")
FORUM_THINGS_EN = ("carburetor", "sourdough starter", "aquarium filter", "bonsai", "3D printer", "road bike",
                   "guitar amp", "router", "tomato plants", "watch strap", "espresso grinder", "lawn mower")
SIGNATURES_EN = ("{anchor} | {anchor2} | {anchor3}", "Check out my site: {anchor}", "My blog: {anchor}",
                 "Visit {anchor} for more", "{anchor} - {anchor2}", "Sponsored: {anchor}", "[url={url}]{anchor}[/url]",
                 "<a href={url}>{anchor}</a>")

# -- encoding garbage --------------------------------------------------------------------------------------------
BINARY_HEADERS = ("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
                  "PK\x03\x04\x14\x00\x06\x00\x08\x00", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
                  "ÿØÿà\x00\x10JFIF\x00\x01\x01", "GIF89a", "MZ\x90\x00\x03\x00\x00\x00\x04\x00",
                  "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "Rar!\x1a\x07\x00")
STATE_NAMES = {"TX": "Texas", "AZ": "Arizona", "CO": "Colorado", "FL": "Florida", "GA": "Georgia",
               "NC": "North Carolina",
               "TN": "Tennessee", "OH": "Ohio", "IL": "Illinois", "MI": "Michigan", "WA": "Washington", "OR": "Oregon",
               "CA": "California", "NV": "Nevada", "UT": "Utah", "MO": "Missouri", "IN": "Indiana", "KY": "Kentucky",
               "MD": "Maryland", "VA": "Virginia", "ID": "Idaho", "NE": "Nebraska", "NM": "New Mexico",
               "PA": "Pennsylvania", "WI": "Wisconsin", "KS": "Kansas"}
TOWN_PARTS = (("North ", "South ", "East ", "West ", "New ", "Lake ", "Mount ", "Fort ", "Port ", ""),
              ("ville", "ton", " Springs", " Heights", " Falls", "field", "wood", " City", "burg", " Park", " Creek"))
PERIODS = {"en": "month", "de": "Monat", "fr": "mois", "es": "mes"}
