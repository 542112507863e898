"""Word lists, phrase lists and page templates for ``bench/junk_eval.py`` (the evaluation-only junk set).

Everything here was written for that generator, by hand, without reading the project's other junk generators or
its quality signals. Lists are kept as whitespace-, comma- or pipe-separated strings to stay compact; the
generator splits them. Placeholders are ``{name}`` (filled by ``str.format``-like substitution in the generator)
and, in page shells, ``{{name}}`` (filled in one pass, so text that itself contains braces is left alone).
"""

from __future__ import annotations


def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


def _wordlist(s: str) -> tuple[str, ...]:
    """Sorted, so that drawing from it does not depend on string hashing."""
    return tuple(sorted(set(s.split())))


def _lines(s: str) -> tuple[str, ...]:
    return tuple(" ".join(line.split()) for line in s.strip().splitlines() if line.strip())


def _pipes(s: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in s.replace("\n", "|").split("|") if item.strip())


# -- function words: whatever is not in these (and is not a number) counts as a content word ----------------------
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": _words("""a an the and or but nor so yet if then than that this these those there here of in on at by for
        with about against between into through during before after above below to from up down out off over under
        again further once all any both each few more most other some such no not only own same too very can will
        just should would could might must may shall i me my we our you your he him his she her it its they them
        their what which who whom whose when where why how is are was were be been being have has had having do
        does did doing am as also because until while s t don didn doesn isn wasn weren won said says mr ms mrs
        one two three like get got new even still many much well back way now per via according"""),
    "de": _words("""der die das den dem des ein eine einer eines einem einen und oder aber doch wenn dann als wie
        so auch noch nur schon sehr mit von zu zum zur im in an am auf aus bei nach vor über unter durch für gegen
        ohne um bis seit ich du er sie es wir ihr mich dich sich uns euch mir dir ihm ihnen mein dein sein unser
        euer ist sind war waren bin bist wird werden wurde wurden hat haben hatte hatten kann können muss müssen
        soll sollen will wollen darf nicht kein keine keinen dass ob weil da dieser diese dieses diesem diesen
        jeder jede jedes man was wer wo wann warum hier dort mehr viel viele alle alles sehr ja nein denn"""),
    "fr": _words("""le la les l un une des du de d et ou mais donc or ni car que qu qui quoi dont où ce cet cette
        ces c se s sa son ses mon ma mes ton ta tes notre nos votre vos leur leurs je tu il elle on nous vous ils
        elles me m te t lui y en à au aux dans par pour sur sous avec sans entre chez vers est sont était été être
        avoir a ont avait fait ne pas plus très aussi bien tout tous toute toutes comme si même peut sont cela ça
        non oui été sera"""),
    "es": _words("""el la los las lo un una unos unas y o u pero sino ni que qué quien cual cuando donde como si
        de del a al en con por para sin sobre entre hasta desde hacia según ante bajo tras yo tú él ella nosotros
        vosotros ellos ellas me te se nos os le les mi mis tu tus su sus nuestro nuestra es son era fue ser estar
        está están estaba ha han había haber hay no sí muy más menos también ya este esta estos estas ese esa eso
        aquel todo todos toda todas otro otra cada"""),
    "ru": _words("""и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне
        было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас
        нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была
        сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь
        этом один почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при наконец два об другой
        хоть после над больше тот через эти нас про всего них какая много разве три эту моя впрочем хорошо свою
        этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю между это также который которые
        которая которой год года"""),
    "id": _words("""yang dan di ke dari ini itu dengan untuk pada dalam tidak akan ada adalah oleh juga atau karena
        sebagai bahwa saya kami kita anda dia mereka ia telah sudah belum bisa dapat harus lebih sangat hanya
        saja tersebut para bagi seperti jika namun tetapi serta agar hingga sampai antara setelah sebelum pun
        lagi masih nya se"""),
    "pl": _words("""i w we z ze na do o od po za przez przy dla bez pod nad przed między a ale lub albo czy że to
        jest są był była było byli być ma mają miał nie tak jak już jeszcze tylko też także się mnie mi ja ty on
        ona ono my wy oni one go jej jego ich ten ta te tym tego tej które który która co kto gdzie kiedy bo jeśli
        więc oraz bardzo może można aby żeby"""),
    "pt": _words("""o a os as um uma uns umas e ou mas nem que quem qual cujo onde quando como se de do da dos das
        em no na nos nas por pelo pela pelos pelas para com sem sobre entre até desde ao aos à às eu tu ele ela
        nós vós eles elas me te se lhe lhes meu minha seu sua nosso é são era foi ser estar está estão tem têm
        ter havia há não sim muito mais menos também já este esta isto esse essa isso aquele todo todos toda
        outro outra cada"""),
    "it": _words("""il lo la i gli le un uno una e ed o ma né che chi cui dove quando come se di del dello della
        dei degli delle a al allo alla ai agli alle da dal dalla in nel nello nella nei negli nelle con su sul
        sulla per tra fra io tu lui lei noi voi loro mi ti si ci vi ne è sono era fu essere stato ha hanno aveva
        avere non sì molto più meno anche già questo questa quello quella tutto tutti ogni altro altra"""),
    "nl": _words("""de het een en of maar want dus dat die dit deze wie wat waar wanneer hoe als dan van in op aan
        met voor door bij naar uit over onder tot om tegen zonder ik jij je hij zij ze wij we jullie mij me hem
        haar ons hun is zijn was waren ben bent wordt worden werd heeft hebben had kan kunnen moet moeten zal
        zullen niet geen ook nog al wel er hier daar zo zeer veel meer"""),
    "sv": _words("""och i att det som en på är av för med till den har de inte om ett han men var jag sig från vi
        så kan man när år sin under också efter eller nu sina där vid mot ska skulle kommer ut får finns vara
        hade alla andra mycket än här då sedan över bara blir blev två detta dessa hon vad utan"""),
}
SALAD_LANGS = ("en", "de", "fr", "es", "ru", "id", "pl", "pt", "it", "nl", "sv")

# -- site chrome --------------------------------------------------------------------------------------------------
NAV: dict[str, str] = {
    "en": "Home|About|Blog|Services|Shop|Contact|Privacy Policy|FAQ",
    "de": "Startseite|Über uns|Blog|Leistungen|Shop|Kontakt|Impressum|Datenschutz",
    "fr": "Accueil|À propos|Blog|Services|Boutique|Contact|Mentions légales|FAQ",
    "es": "Inicio|Quiénes somos|Blog|Servicios|Tienda|Contacto|Aviso legal|Preguntas",
    "ru": "Главная|О нас|Блог|Услуги|Магазин|Контакты|Политика конфиденциальности|Вопросы",
    "id": "Beranda|Tentang Kami|Blog|Layanan|Toko|Kontak|Kebijakan Privasi|FAQ",
    "pl": "Strona główna|O nas|Blog|Usługi|Sklep|Kontakt|Polityka prywatności|FAQ",
    "pt": "Início|Sobre|Blog|Serviços|Loja|Contato|Política de Privacidade|Perguntas",
    "it": "Home|Chi siamo|Blog|Servizi|Negozio|Contatti|Privacy|FAQ",
    "nl": "Home|Over ons|Blog|Diensten|Winkel|Contact|Privacybeleid|FAQ",
    "sv": "Hem|Om oss|Blogg|Tjänster|Butik|Kontakt|Integritetspolicy|Vanliga frågor",
}
RIGHTS: dict[str, str] = {"en": "All rights reserved.", "de": "Alle Rechte vorbehalten.",
                          "fr": "Tous droits réservés.", "es": "Todos los derechos reservados.",
                          "ru": "Все права защищены.", "id": "Hak cipta dilindungi.",
                          "pl": "Wszelkie prawa zastrzeżone.",
                          "pt": "Todos os direitos reservados.", "it": "Tutti i diritti riservati.",
                          "nl": "Alle rechten voorbehouden.", "sv": "Alla rättigheter förbehållna."}
TAGLINES = _lines("""
    Just another WordPress site
    Your daily source for the best deals
    News, reviews and more
    The ultimate resource online
    Tips, tricks and guides
    Everything you need in one place
    Since 2009
    Quality information for everyone
""")
THEME_CREDITS = _lines("""
    Proudly powered by WordPress | Theme: Astrid by aThemes.
    Powered by Joomla!
    Theme by ThemeGrill. Powered by WordPress.
    Designed by Free Templates Online
    Powered by Blogger.
    Site built with SiteBuilder Pro
    Template by WebThemez
""")
GENERATORS = ("WordPress 5.8.2", "WordPress 6.1.1", "Joomla! - Open Source Content Management", "Blogger",
              "Drupal 7 (https://www.drupal.org)", "WordPress 4.9.8", "SiteBuilder 3.2")
TLDS: dict[str, str] = {
    "en": "com com com net net info xyz org biz us co.uk online top site club pw co in",
    "de": "de de de com info net eu", "fr": "fr fr com net info eu", "es": "es es com net info",
    "ru": "ru ru ru su com net xyz", "id": "id co.id com net xyz web.id", "pl": "pl pl com.pl com net info",
    "pt": "com.br com.br pt com net", "it": "it it com net info", "nl": "nl nl com net eu",
    "sv": "se se com nu net", "mul": "com net xyz info top",
}

# Page shells. {{nav}} is filled with the theme's own nav markup; {{main}} is the junk.
THEMES: dict[str, tuple[str, str]] = {
    "wp_classic": ("li", """<body class="post-template-default single single-post postid-{{pid}}">
<div id="page" class="site">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header"><div class="site-branding">
<p class="site-title"><a href="/" rel="home">{{site}}</a></p><p class="site-description">{{tagline}}</p></div>
<nav id="site-navigation" class="main-navigation"><button class="menu-toggle" aria-controls="primary-menu">Menu</button>
<ul id="primary-menu" class="menu">{{nav}}</ul></nav></header>
<div id="content" class="site-content"><main id="main" class="site-main">
<article id="post-{{pid}}" class="post-{{pid}} post type-post status-publish format-standard hentry">
<header class="entry-header"><h1 class="entry-title">{{h1}}</h1>
<div class="entry-meta"><span class="posted-on">{{date}}</span> <span class="byline">by {{author}}</span></div></header>
<div class="entry-content">
{{main}}
</div></article></main>
<aside id="secondary" class="widget-area">{{sidebar}}</aside></div>
<footer id="colophon" class="site-footer"><div class="site-info">{{footer}}</div></footer></div>"""),
    "table_layout": ("pipes", """<body bgcolor="#FFFFFF" leftmargin="0" topmargin="0" marginwidth="0">
<table width="100%" border="0" cellspacing="0" cellpadding="4">
<tr><td class="hdr" colspan="2"><a href="/"><img src="/images/logo.gif" alt="{{site}}" border="0"></a>
<font size="2" color="#666666">{{tagline}}</font></td></tr>
<tr><td class="topnav" colspan="2" bgcolor="#003366">{{nav}}</td></tr>
<tr><td width="180" valign="top" class="leftcol" bgcolor="#EEEEEE">{{sidebar}}</td>
<td valign="top" class="maincol"><h1>{{h1}}</h1>
{{main}}
</td></tr>
<tr><td colspan="2" class="ftr" align="center"><font size="1">{{footer}}</font></td></tr>
</table>"""),
    "bootstrap": ("li_bs", """<body>
<nav class="navbar navbar-expand-lg navbar-light bg-light"><div class="container">
<a class="navbar-brand" href="/">{{site}}</a>
<button class="navbar-toggler" type="button" data-toggle="collapse" data-target="#navbarMain"><span \
        class="navbar-toggler-icon"></span></button>
<div class="collapse navbar-collapse" id="navbarMain"><ul class="navbar-nav ml-auto">{{nav}}</ul></div></div></nav>
<div class="container mt-4"><div class="row">
<div class="col-md-8 content-area"><h1 class="mb-3">{{h1}}</h1>
{{main}}
</div>
<div class="col-md-4 sidebar">{{sidebar}}</div></div></div>
<footer class="footer bg-dark text-white py-3 mt-5"><div class="container"><small>{{footer}}</small></div></footer>"""),
    "html5": ("li", """<body>
<header class="top"><div class="logo"><a href="/">{{site}}</a></div><nav><ul>{{nav}}</ul></nav></header>
<main>
<article><h1>{{h1}}</h1><p class="meta"><time datetime="{{iso}}">{{date}}</time></p>
{{main}}
</article>
</main>
<footer><p>{{footer}}</p></footer>"""),
    "joomla": ("li", """<body class="site com_content view-article">
<div id="wrapper"><div id="header"><div class="logoheader"><h2 id="logo"><a href="/">{{site}}</a>
<span class="header1">{{tagline}}</span></h2></div>
<div class="moduletable_menu"><ul class="nav menu mod-list">{{nav}}</ul></div></div>
<div id="main"><div id="maincolumn"><div class="item-page" itemscope itemtype="https://schema.org/Article">
<div class="page-header"><h2 itemprop="headline">{{h1}}</h2></div>
<dl class="article-info muted"><dd class="published">Published: {{date}}</dd><dd class="hits">Hits: {{hits}}</dd></dl>
<div itemprop="articleBody">
{{main}}
</div></div></div>
<div id="right">{{sidebar}}</div></div>
<div id="footer"><p class="copyright">{{footer}}</p></div></div>"""),
    "blogger": ("li", """<body class="loading">
<div class="outer-wrapper"><div class="header-outer"><div class="header section" id="header">
<div class="widget Header"><h1 class="title"><a href="/">{{site}}</a></h1><p \
        class="description">{{tagline}}</p></div></div>
<div class="tabs-outer"><ul class="tabs">{{nav}}</ul></div></div>
<div class="main-outer"><div class="main-inner"><div class="date-outer"><h2 \
        class="date-header"><span>{{date}}</span></h2>
<div class="post hentry"><h3 class="post-title entry-title">{{h1}}</h3>
<div class="post-body entry-content" id="post-body-{{pid}}">
{{main}}
</div>
<div class="post-footer">Posted by {{author}} at {{time}}</div></div></div></div>
<div class="sidebar section" id="sidebar-right-1">{{sidebar}}</div></div>
<div class="footer-outer">{{footer}}</div></div>"""),
    "landing": ("pipes", """<body class="landing">
<header class="hero-top"><div class="brand">{{site}}</div><div class="links">{{nav}}</div></header>
<div class="page-body"><section class="hero-text"><h1>{{h1}}</h1></section>
<section class="content">
{{main}}
</section></div>
<footer class="bottom"><p>{{footer}}</p></footer>"""),
}

# -- keyword stuffing ---------------------------------------------------------------------------------------------
# head | object | connector | modifiers | suffixes | language
KEYWORD_TOPICS = _lines("""
    flights|paris|to|cheap,last minute,discount,best|deals,tickets,from london,2024|en
    car insurance|florida|in|cheap,best,affordable,low cost|quotes,online,for young drivers,rates|en
    payday loans|texas|in|fast,same day,online,no credit check|direct lender,bad credit,instant approval|en
    hotels|barcelona|in|cheap,best,boutique,luxury|deals,city centre,near beach,booking|en
    weight loss pills|women|for|best,fast,natural,cheap|that work,reviews,2024,without exercise|en
    casino|no deposit bonus|with|online,best,new,real money|codes,2024,usa,free spins|en
    replica watches|rolex|for|cheap,swiss,best,high quality|sale,online,uk,for men|en
    bitcoin|trading bot|for|best,free,automated,profitable|review,2024,beginners,app|en
    seo services|london|in|affordable,best,local,cheap|company,agency,packages,expert|en
    dentist|chicago|in|emergency,cosmetic,best,affordable|near me,open saturday,reviews|en
    wedding dresses|plus size|for|cheap,designer,vintage,beach|online,sale,2024,under 500|en
    essay writing service|students|for|cheap,best,legit,fast|reviews,uk,online,24/7|en
    vpn|netflix|for|best,free,fast,cheap|2024,review,download,trial|en
    viagra|online|without|buy,cheap,generic,discount|prescription,usa,fast shipping,price|en
    ugg boots|sale|on|cheap,discount,genuine,womens|uk,outlet,clearance,online|en
    used cars|houston|in|cheap,best,certified,reliable|for sale,under 5000,by owner,dealers|en
    mortgage rates|california|in|lowest,best,current,fixed|today,refinance,30 year,calculator|en
    personal injury lawyer|los angeles|in|best,top rated,experienced,free|consultation,near me,reviews|en
    iphone repair|dubai|in|cheap,fast,same day,best|screen,battery,near me,service|en
    flüge|mallorca|nach|günstige,billige,last minute,beste|angebote,buchen,2024,ab berlin|de
    kredit|ohne schufa|für|schneller,günstiger,sofort,seriöser|online,vergleich,beantragen,trotz schulden|de
    assurance auto|jeune conducteur|pour|meilleure,pas cher,comparateur,moins chère|en ligne,devis,2024|fr
    vuelos|madrid|a|baratos,ofertas,últimos,mejores|hoy,desde barcelona,2024,ida y vuelta|es
""")
KEYWORD_PATTERNS = ("{m} {h} {c} {o}", "{o} {h} {m}", "{h} {c} {o} {s}", "{m} {o} {h}", "{h} {o}", "{o} {h} {s}",
                    "{m} {h} {o}", "{h} {o} {s}", "{o} {m} {h}", "{m} {h} {o} {s}", "{h} {c} {o}", "{o} {h}")
SEO_SENTENCES = _lines("""
    Looking for {kw}? You have come to the right place.
    We offer the best {kw} at the lowest prices guaranteed.
    Our {kw} experts have compared hundreds of options so you don't have to.
    Find {kw} and save up to {pct}% today.
    {Kw} is one of the most searched topics in {year}, and for good reason.
    If you want {kw}, {kw2} or even {kw3}, {site} has it all.
    Many people ask us where to get {kw} and the answer is simple.
    Compare {kw} offers from trusted providers in just a few clicks.
    The demand for {kw} keeps growing every year.
    Read our complete guide to {kw} before you decide.
    Book your {kw} now and enjoy exclusive discounts on {kw2}.
    Thousands of happy customers trust us for {kw}.
    Don't miss our latest {kw} deals, updated daily.
    Whether you need {kw} or {kw2}, we have the perfect solution for you.
    Getting {kw} has never been easier than with {site}.
    Check out the top {kw} options below.
    At {site} we believe that {kw} should be affordable for everyone.
    Our team updates this {kw} page every week, so you always get the newest {kw2}.
    Click here for more information about {kw}.
    Here you will find everything about {kw}, {kw2} and more.
    The best time to get {kw} is right now.
    Sign up today to receive {kw} alerts directly in your inbox.
    {Kw}? {Kw2}? We know exactly what you are looking for.
    Our {kw} page is the number one resource for {kw2} on the internet.
""")
FAQ_QUESTIONS = _lines("""
    What is the best {kw}?
    Where can I find {kw}?
    How much does {kw} cost in {year}?
    Is {kw} worth it?
    How do I get {kw} online?
    Why choose {site} for {kw}?
    Are there any {kw} discounts?
""")
KW_INSERTS = ("When it comes to {kw}, ", "{Kw}: ", "As every {kw} expert knows, ", "For {kw} fans, ",
              "In the world of {kw}, ", "Speaking of {kw}, ")
KW_SUFFIXES = (" - {kw}", " ({kw})", ", which is why {kw} matters", " | {kw}", ". {Kw}!", ", just like {kw}")
HIDE_STYLES = ("display:none", "visibility:hidden", "font-size:1px;color:#ffffff", "position:absolute;left:-9999px",
               "height:0;overflow:hidden", "text-indent:-9999px", "color:#fefefe;font-size:2px")

# -- links --------------------------------------------------------------------------------------------------------
SPAM_HOST_WORDS = _wordlist("""best cheap top deals 4u online shop pro mega super discount finder hub zone world king
    city express direct 247 easy quick fast smart value budget star gold prime ultra max loans casino pharma pills
    meds jerseys watches bags shoes seo links travel flights hotel insurance crypto bitcoin forex bets slots dating
    diet keto vpn essay replica outlet guide review promo coupon free bonus win lucky rx health""")
DIRECTORY_CATEGORIES = _pipes("""
    Arts & Entertainment
    Business & Finance
    Computers & Internet
    Health & Fitness
    Home & Garden
    Shopping
    Travel & Tourism
    Casino & Gaming
    Real Estate
    Education
    Automotive
    Dating & Relationships
""")
LINK_DESCRIPTIONS = _lines("""
    {Kw} - the most complete resource on the web.
    Find {kw} from verified sellers.
    Top rated site for {kw}.
    Everything about {kw} and {kw2}.
    Your trusted source of {kw} since 2008.
    Best prices on {kw}, free shipping worldwide.
    Huge selection of {kw}. Visit today!
    {Kw} reviews, guides and coupons.
""")
LINK_INTROS = _lines("""
    Here are some useful resources we recommend to our visitors.
    Check out our partner sites below.
    Our friends and partners:
    Below is a list of websites related to {kw}.
    Useful links for {kw}. Link exchange welcome, contact us!
    Blogroll
    Recommended sites
""")
CLICK_ANCHORS = ("click here", "visit site", "more info", "read more", "this site", "website", "go", "link")

# -- spinning -----------------------------------------------------------------------------------------------------
SYNONYMS: dict[str, tuple[str, ...]] = {k: tuple(v.split(",")) for k, v in (line.split(":", 1) for line in _lines("""
    said:stated,expressed,mentioned,articulated
    says:states,expresses,mentions
    company:organization,firm,enterprise,corporation
    people:individuals,folks,persons,people today
    important:of huge significance,essential,crucial,vital
    new:brand new,novel,fresh
    big:huge,massive,substantial,sizeable
    large:huge,massive,sizeable,considerable
    small:little,tiny,modest,minute
    good:great,decent,fine,superb
    bad:poor,awful,unfavorable
    many:numerous,countless,a great deal of,lots of
    help:assist,aid,support,be of assistance
    use:utilize,make use of,employ
    buy:purchase,acquire,obtain
    get:obtain,acquire,receive,gain
    make:create,produce,generate
    show:display,demonstrate,exhibit
    start:begin,commence,initiate
    car:automobile,vehicle,motor vehicle,auto
    cars:automobiles,vehicles,autos
    home:house,residence,dwelling
    problem:issue,difficulty,trouble,predicament
    problems:issues,difficulties,troubles
    money:cash,funds,capital,dollars
    time:period,moment,occasion
    year:twelve months,calendar year,season
    years:many years,decades,seasons
    job:work,occupation,task,employment
    city:town,metropolis,municipality
    country:nation,state,land
    world:globe,earth,planet
    government:authorities,administration,state
    officials:authorities,administrators,representatives
    executive:exec,government,management
    team:group,crew,squad
    players:gamers,participants,competitors
    fans:followers,supporters,lovers
    news:information,headlines,reports
    reported:documented,noted,described
    market:marketplace,industry,niche
    business:company,enterprise,trade
    customers:clients,consumers,buyers,shoppers
    users:customers,consumers,end users
    service:support,provider,assistance
    system:program,method,technique
    data:info,information,details
    increase:improve,boost,enhance,raise
    quickly:rapidly,swiftly,speedily
    very:extremely,really,quite,exceptionally
    also:additionally,likewise,as well
    however:nevertheless,even so,nonetheless
    because:since,as,due to the fact that
    before:prior to,just before,ahead of
    after:following,right after,soon after
    about:regarding,concerning,approximately
    now:presently,currently,right now,at this point
    today:these days,nowadays,in the present day
    recently:lately,not too long ago,just lately
    think:believe,feel,consider
    know:understand,realize,recognize
    want:desire,wish,need
    need:require,must have,want
    find:locate,discover,uncover
    told:informed,advised,instructed
    asked:requested,inquired,questioned
    called:known as,referred to as,named
    began:started,commenced,initiated
    including:such as,which include,along with
    plan:strategy,program,scheme
    part:portion,component,element
    high:higher,superior,elevated
    long:lengthy,extended,prolonged
    best:greatest,finest,top,very best
    first:initial,very first,primary
    last:final,previous,past
    major:main,key,significant
    change:alter,modify,transform
    issue:problem,concern,matter
    result:outcome,end result,consequence
    health:wellness,well-being,wellbeing
    children:kids,youngsters,little ones
    family:household,loved ones,relatives
    week:seven days,7 days
    month:thirty day period,calendar month
    police:law enforcement,cops,authorities
    school:college,academy,institution
    students:learners,pupils,college students
    women:ladies,females,gals
    men:guys,males,gentlemen
    water:h2o,drinking water,liquid
    food:meals,foods,cuisine
    price:cost,selling price,value
    prices:costs,rates,charges
    online:on the web,on the internet,on-line
    website:web site,internet site,site
    great:wonderful,terrific,fantastic,excellent
    different:various,distinct,unique
    easy:simple,effortless,uncomplicated
    hard:difficult,tough,challenging
    likely:probably,most likely,possible
    percent:per cent,percentage
    million:thousand thousand,mil
    state:condition,point out,express
    still:nonetheless,even now,yet
    support:assistance,help,backing
    deal:offer,bargain,package
    power:energy,electricity,strength
    story:tale,narrative,account
"""))}
SPINTAX_ARTICLES = (
    """{In the current day and age|These days|Nowadays|In this day and age}, {car insurance|automobile insurance|auto
    insurance|motor vehicle insurance} is {of huge significance|extremely important|a must|vital} for {every|each and
    every|any} {driver|motorist|car owner}. {Many|Numerous|Lots of|A great deal of} {people|individuals|folks} {do not
    realize|fail to understand|are not aware} {how much|just how much|the amount of} {money|cash|funds} they {can
    save|could save|are able to save} by {comparing|evaluating|looking at} {quotes|estimates|rates}. {The first
    thing|The very first thing|Step one} you {need to|should|must} do is {find|locate|discover} a {reliable|trustworthy|
    reputable} {provider|company|firm}. {After that|Then|Next}, {make sure|ensure|be certain} {that|} your {policy|
    coverage|plan} {covers|includes|handles} {accidents|crashes|collisions} and {theft|robbery|burglary}. {In
    addition|Additionally|On top of that}, {a good|a great|an excellent} {driving record|driving history} {can|will|
    may} {help you|assist you|allow you} {get|obtain|receive} {lower|reduced|cheaper} {premiums|rates|prices}. {In
    conclusion|To conclude|All in all}, {taking|spending} {the time|some time} to {research|investigate|look into}
    {your options|your choices} {is|will be} {worth it|well worth it|definitely worth the effort}.""",
    """{Losing weight|Weight loss|Shedding pounds|Dropping those extra pounds} {is not|isn't} {easy|simple|an easy
    task}, {but|however|yet} {it is|it's} {possible|achievable|doable} {with|by using} the {right|correct|proper}
    {approach|strategy|method}. {Many|Numerous|Countless} {experts|specialists|professionals} {agree|concur} that {a
    healthy|a balanced|a nutritious} {diet|eating plan|meal plan} is {the key|the secret|essential}. {You should|You
    need to|It is advisable to} {drink|consume} {plenty of|a lot of|lots of} {water|h2o|fluids} {every day|each day|
    daily}. {Exercise|Physical activity|Working out} {also|additionally|likewise} {plays|performs} {a
    huge|a significant|an important} {role|part}. {Try to|Attempt to|Make an effort to} {walk|stroll} {at least|no
    less than} {thirty|30} {minutes|mins} {a day|each day|per day}. {Don't|Do not} {forget|neglect} to {get|obtain}
    {enough|sufficient|adequate} {sleep|rest}. {Remember|Keep in mind|Bear in mind} that {consistency|persistence|
    regularity} is {more important|more crucial|of greater significance} than {speed|rapidity}.""",
    """{Home improvement|Home renovation|House remodeling} {projects|tasks|jobs} {can|could|may} {add|increase|boost}
    {significant|considerable|substantial} {value|worth} to {your home|your house|your property}. {Before you
    start|Prior to starting|Before beginning}, {it is|it's} {a good idea|wise|smart} to {create|make|develop} {a
    budget|a spending plan|a financial plan}. {Painting|Repainting} {the walls|your walls} is {one of the|among the}
    {easiest|simplest|most straightforward} {ways|methods|techniques} to {refresh|update|revamp} {a room|a space}.
    {If you are|If you're} {planning|considering|thinking about} {a bigger|a larger|a more substantial} {project|job},
    {hiring|employing|using the services of} {a professional|an expert|a specialist} {contractor|builder} {is
    recommended|is a good idea|makes sense}. {Always|Constantly|Usually} {compare|evaluate} {several|multiple|a
    few} {offers|quotes|bids} {before|prior to} {making a decision|deciding|choosing}.""",
    """{Training|Teaching} {your dog|your puppy|your canine} {requires|takes|needs} {patience|persistence|time} and
    {consistency|regularity}. {Dogs|Canines|Pets} {respond|react} {best|most effectively} to {positive|favorable}
    {reinforcement|rewards|encouragement}. {Start|Begin|Commence} with {simple|basic|easy} {commands|instructions}
    {like|such as} {sit|"sit"} and {stay|"stay"}. {Keep|Maintain} {training sessions|lessons} {short|brief} and
    {fun|enjoyable|entertaining}. {Never|Do not ever} {punish|scold|hit} your {dog|pet} for {mistakes|errors}.
    {Over time|Eventually|With time}, your {furry friend|four-legged friend|pooch} {will|is going to} {learn|understand|
    pick up} {what you expect|your expectations}.""",
)
MACRO_LEAKS = ("#file_links[C:\\keywords\\{kw}.txt,1,S]", "%KEYWORD%", "[KEYWORD]", "#random_article#",
               "{{keyword}}", "%%spin%%")
TORTURED = _lines("""
    counterfeit consciousness
    profound learning
    colossal information
    irregular woodland
    neural organization
    flag to commotion proportion
    cloud figuring
    mean square blunder
    remote sensor organizations
    bosom malignancy
    discourse acknowledgment
    picture handling
    choice tree
    straight relapse
    backing vector machine
    highlight extraction
    web of things
    savvy city
    energy utilization
    execution assessment
""")
ABSTRACT_TEMPLATES = _lines("""
    In this paper, we propose a novel {tp} based methodology for {tp2} in {tp3} conditions.
    The proposed framework accomplishes better {tp} contrasted with existing strategies.
    Recently, {tp} has pulled in huge consideration from the exploration local area.
    Trial results show that the proposed approach beats the cutting edge regarding {tp2}.
    We assess the presentation of {tp} utilizing a benchmark dataset gathered from {tp2}.
    The fundamental commitment of this work is a {tp} model for {tp2}.
    Besides, {tp} is utilized to diminish the computational intricacy of {tp2}.
    The reproduction results affirm the adequacy of the proposed {tp} plot.
    This examination researches the effect of {tp} on {tp2} and {tp3}.
    At long last, future exploration headings in {tp} are talked about.
""")

# -- doorways -----------------------------------------------------------------------------------------------------
US_CITIES = _pipes("""
    Houston, TX|Phoenix, AZ|San Antonio, TX|San Diego, CA|Dallas, TX|Austin, TX|Jacksonville, FL|Columbus, OH
    Charlotte, NC|Indianapolis, IN|Seattle, WA|Denver, CO|Nashville, TN|Oklahoma City, OK|El Paso, TX|Boston, MA
    Portland, OR|Las Vegas, NV|Detroit, MI|Memphis, TN|Louisville, KY|Baltimore, MD|Milwaukee, WI|Tucson, AZ
    Fresno, CA|Sacramento, CA|Mesa, AZ|Atlanta, GA|Omaha, NE|Raleigh, NC|Miami, FL|Tulsa, OK|Tampa, FL
    Orlando, FL|Cleveland, OH|Wichita, KS|Arlington, TX|Bakersfield, CA|Aurora, CO|Anaheim, CA|Plano, TX
""")
UK_TOWNS = "Leeds|Sheffield|Bristol|Leicester|Coventry|Bradford|Nottingham|Reading|Derby|Luton|Norwich|Swindon|Bolton"
DE_CITIES = ("Berlin|Hamburg|München|Köln|Frankfurt|Stuttgart|Düsseldorf|Leipzig|Dortmund|Essen|Bremen|Dresden|"
             "Hannover|Nürnberg|Duisburg|Bochum|Wuppertal|Bielefeld|Bonn|Münster|Mannheim|Karlsruhe|Augsburg|Kiel")
FR_CITIES = ("Paris|Marseille|Lyon|Toulouse|Nice|Nantes|Montpellier|Strasbourg|Bordeaux|Lille|Rennes|Reims|Toulon|"
             "Grenoble|Dijon|Angers|Nîmes|Villeurbanne|Le Mans|Brest|Limoges|Tours|Amiens|Metz")
SERVICES_EN = _lines("""
    plumber|plumbers|plumbing
    locksmith|locksmiths|locksmith services
    electrician|electricians|electrical repairs
    roofer|roofers|roofing
    carpet cleaner|carpet cleaners|carpet cleaning
    pest control company|exterminators|pest control
    garage door technician|garage door technicians|garage door repair
    tow truck company|tow truck drivers|towing
    moving company|movers|moving services
    tree service|arborists|tree removal
    HVAC contractor|HVAC technicians|AC repair
    junk removal company|junk haulers|junk removal
""")
SERVICES_DE = ("Schlüsseldienst|Türöffnung", "Umzugsunternehmen|Umzug", "Rohrreinigung|Rohrreinigung",
               "Entrümpelung|Haushaltsauflösung", "Kammerjäger|Schädlingsbekämpfung", "Elektriker|Elektroinstallation")
SERVICES_FR = ("serrurier|serrurerie", "plombier|plomberie", "déménageur|déménagement", "électricien|électricité",
               "vitrier|vitrerie")
JOBS = _pipes("""
    Warehouse Worker|Delivery Driver|Registered Nurse|Software Developer|Customer Service Representative
    Forklift Operator|Cashier|Truck Driver|Dental Assistant|Security Guard|Data Entry Clerk|Housekeeper
""")
DOORWAY_TEMPLATES: dict[str, tuple[str, ...]] = {
    "service_city": (
        """<p><strong>{Service} in {city}.</strong> Looking for a {service} in {city}? Our {city} {services} are
        available 24/7 for all your {activity} needs. Call {phone} now!</p>
        <h2>Best {Service} in {city}, {st}</h2><p>When you need a reliable {service} in {city}, {st}, look no
        further. We are the number one {activity} company in {city} and the surrounding areas.</p>
        <h2>Why Choose Our {city} {Services}?</h2><ul><li>Licensed {city} {services}</li><li>Fast response anywhere
        in {city}</li><li>Affordable {activity} prices in {city}</li><li>Free estimates in {city}, {st}</li></ul>
        <h2>{Activity} Services in {city}</h2><p>Our {city} team provides {activity} for homes and businesses in
        {city}. If you live in {city} and need a {service}, call {phone} today.</p>""",
        """<h2>Need an Emergency {Service} in {city}?</h2><p>Top Rated {city} {Service} - Same Day Service - Call
        {phone}</p><p>{Activity} in {city} doesn't have to be expensive. Our {city} {services} offer the lowest
        rates in {city}. We serve all {city} neighborhoods and zip codes {zips}.</p><h3>{city} {Activity}
        Services</h3><p>Residential {activity} {city} | Commercial {activity} {city} | Emergency {activity} {city}
        | 24 hour {service} {city}</p><p>Call the best {service} in {city}, {st} today: {phone}</p>"""),
    "near_me": (
        """<h2>{Service} Near Me in {city}, {st}</h2><p>Searching for "{service} near me" in {city}? You found the
        top rated {service} near you. We serve {city} and nearby {nearby}.</p><h3>Zip Codes We Serve in {city}</h3>
        <p>{zips}</p><h3>{Activity} Near Me</h3><p>{Activity} near me {city} {st}. Cheap {service} near me.
        {Service} near me open now. Best {services} near me in {city}.</p>""",),
    "service_city_de": (
        """<p><strong>{Service} {city}</strong> – schnell, günstig und zuverlässig. Sie suchen einen {service} in
        {city}? Unser {service} {city} ist rund um die Uhr für Sie erreichbar: {phone}.</p><h2>{Service} in {city}
        zum Festpreis</h2><p>Als {service} in {city} bieten wir {activity} in allen Stadtteilen von {city} an.
        {activity} {city} ohne versteckte Kosten.</p><h2>Ihr {service} für {city} und Umgebung</h2><ul><li>{service}
        {city} Zentrum</li><li>{service} {city} Nord</li><li>{service} {city} Süd</li><li>{activity} {city} 24h</li>
        </ul><p>Rufen Sie jetzt Ihren {service} in {city} an!</p>""",),
    "service_city_fr": (
        """<p><strong>{Service} {city}</strong> : intervention rapide 7j/7 et 24h/24. Vous cherchez un {service} à
        {city} ? Notre {service} à {city} intervient en moins de 30 minutes. Appelez le {phone}.</p><h2>{Service}
        pas cher à {city}</h2><p>Votre {service} {city} pour tous travaux de {activity} à {city} et alentours.
        Devis gratuit {activity} {city}.</p><h2>Pourquoi choisir notre {service} à {city} ?</h2><ul><li>{service}
        agréé à {city}</li><li>Tarifs {activity} {city} transparents</li><li>Dépannage {city} jour et \
        nuit</li></ul>""",),
    "hotels_city": (
        """<h2>Cheap Hotels in {city}</h2><p>Find cheap hotels in {city}. Compare {n} hotels in {city} and book the
        best hotel deals in {city}, {st}. Hotels in {city} from ${price} per night.</p><h3>Popular {city}
        Hotels</h3><ul><li>{city} Downtown Hotel</li><li>{city} Airport Inn</li><li>Best Western {city}</li><li>{city}
        Suites &amp; Spa</li></ul><h3>Hotels Near {city}</h3><p>{nearby}</p><p>Last minute hotels {city}. Hotel
        deals {city}. {city} hotel booking. Cheap {city} motels.</p>""",),
    "jobs_city": (
        """<h2>{job} Jobs in {city}, {st}</h2><p>{n} {job} jobs available in {city}, {st}. Apply now for {job}
        jobs in {city}. New {job} careers in {city} are added daily.</p><ul><li>{job} - {city}, {st} - ${wage}/hour
        - Full time</li><li>Entry Level {job} - {city} - Apply Now</li><li>{job} (No Experience) - {city}, {st}
        </li><li>Part Time {job} - {city}</li></ul><p>Related searches: {job} jobs near me, {job} {city}
        hiring, {job} salary {city}</p>""",),
}

# -- listings -----------------------------------------------------------------------------------------------------
COUNTIES = "Jefferson Washington Franklin Lincoln Madison Jackson Clay Marion Monroe Greene Warren Wayne Union"
CARRIERS = ("Verizon Wireless", "AT&T Mobility", "T-Mobile USA", "Level 3 Communications", "Bandwidth.com CLEC",
            "Onvoy LLC", "Sprint Spectrum", "Frontier Communications")
CURRENCIES = "USD EUR GBP JPY CHF CAD AUD CNY INR RUB BRL MXN PLN SEK NOK TRY ZAR KRW SGD HKD CZK HUF"
PRODUCT_NOUNS = _pipes("""
    Hose Clamp|Hex Bolt|Phone Case|LED Bulb|USB-C Cable|Yoga Mat|Water Bottle|Door Hinge|Cable Ties|Drill Bit Set
    Car Charger|Screen Protector|Shower Head|Wall Anchor|Dog Leash|Wireless Mouse|Kitchen Scale|Garden Hose|Lunch Box
""")
PRODUCT_ADJS = "Stainless Steel|Heavy Duty|Premium|Universal|Waterproof|Adjustable|Portable|Mini|Replacement|Pro"
SEARCH_PATTERNS = ("how to {w}", "{w} {w2}", "{w} near me", "what is {w}", "{w} {w2} {year}", "{w} meaning",
                   "{w} vs {w2}", "best {w}", "{w} login", "{w} price", "is {w} {w2}", "{w} download free")

# -- error pages, default pages, bot checks (own wording) ----------------------------------------------------------
THEMED_ERRORS = _lines("""
    Oops! That page can't be found.|It looks like nothing was found at this location. Maybe try one of the \
        links below or a search?
    Page Not Found|Sorry, the page you are looking for does not exist, has been removed, had its name changed, \
        or is temporarily unavailable.
    404 - Page not found|We couldn't find what you were looking for. Go back to the homepage.
    Nothing Found|Sorry, but nothing matched your search terms. Please try again with some different keywords.
    Error 404|The requested URL was not found on this server. Return to home page.
""")
LOCAL_404 = _lines("""
    de|Seite nicht gefunden|Die angeforderte Seite existiert leider nicht. Zurück zur Startseite
    fr|Page introuvable|Désolé, la page que vous recherchez n'existe pas ou a été déplacée. Retour à l'accueil
    es|Página no encontrada|Lo sentimos, la página que buscas no existe. Volver al inicio
    ru|Страница не найдена|К сожалению, запрашиваемая страница не существует. Вернуться на главную
    id|Halaman tidak ditemukan|Maaf, halaman yang Anda cari tidak tersedia. Kembali ke beranda
    pl|Nie znaleziono strony|Przepraszamy, strona, której szukasz, nie istnieje. Wróć na stronę główną
    pt|Página não encontrada|Desculpe, a página que você procura não existe. Voltar para o início
    it|Pagina non trovata|Spiacenti, la pagina che cerchi non esiste. Torna alla home
""")
SERVER_ERRORS = _lines("""
    403|Forbidden|You don't have permission to access this resource.
    500|Internal Server Error|The server encountered an internal error or misconfiguration and was unable to \
        complete your request.
    502|Bad Gateway|The proxy server received an invalid response from an upstream server.
    503|Service Unavailable|The server is temporarily unable to service your request due to maintenance \
        downtime or capacity problems. Please try again later.
    404|Not Found|The requested URL was not found on this server.
    504|Gateway Time-out|The server didn't respond in time.
""")
SERVER_SIGS = ("Apache/2.4.41 (Ubuntu) Server at {host} Port 80", "nginx/1.18.0", "nginx", "Microsoft-IIS/8.5",
               "LiteSpeed Web Server at {host}", "openresty/1.19.3.1")
BOT_CHECKS = _lines("""
    Checking your browser before accessing {host}.|This process is automatic. Your browser will redirect to \
        your requested content shortly.|Please allow up to 5 seconds...
    Just a moment...|Verifying you are human. This may take a few seconds.|{host} needs to review the security \
        of your connection before proceeding.
    Access denied|Please verify you are a human by completing the action below.|Access to this page has been \
        denied because we believe you are using automation tools to browse the website.
    Are you a robot?|Please confirm that you are not a robot by ticking the box below.|Why am I seeing this \
        page? Requests from your network look unusual.
    One more step|Please complete the security check to access {host}.|Enable cookies and reload the page if \
        the check does not load.
""")
JS_SHELLS = _lines("""
    You need to enable JavaScript to run this app.
    Please enable JavaScript to view this site.
    This site requires JavaScript. Please enable it in your browser settings and reload the page.
    Loading...
    JavaScript is disabled in your browser. Some features of this site will not work.
""")
COMING_SOON = _lines("""
    en|Coming Soon|We are working hard to launch our new website. Stay tuned!|Notify me
    en|Under Construction|This site is currently under construction. Please check back later.|Contact us
    en|Launching Soon|Something awesome is on the way. Subscribe to be the first to know.|Subscribe
    de|Website in Arbeit|Hier entsteht eine neue Internetpräsenz. Bitte besuchen Sie uns bald wieder.|Kontakt
    fr|En construction|Notre nouveau site arrive bientôt. Merci de votre patience.|Nous contacter
""")
DEFAULT_PAGES = _lines("""
    Welcome to nginx!|If you see this page, the nginx web server has been installed and is working. More \
        configuration is needed.|For online documentation and support please refer to the project's \
        website.|Thank you for using nginx.
    It works!|This is the default web page for this server.|The web server software is running but no content \
        has been added, yet.
    Apache2 Default Page|This is the default welcome page used to test the correct operation of the Apache2 \
        server after installation.|If you can read this page, it means that the HTTP server installed at this \
        site is working properly.|You should replace this file before continuing to operate your HTTP server.
    IIS Windows Server|Welcome|Internet Information Services
    Web Server's Default Page|This page is generated by the hosting control panel.|Create your website or \
        upload your files to httpdocs to replace this page.
""")
PARKED = _lines("""
    This domain may be for sale!|Buy this domain|Related searches
    {host} is for sale|Make an offer|Sponsored listings
    The domain {host} is parked free, courtesy of the registrar.|Get this domain|Related links
    {host}|This domain has expired. If you are the owner, renew it now.|Renew now
""")
SUSPENDED = _lines("""
    Account Suspended|This account has been suspended.|Contact your hosting provider for more information.
    We'll be back soon!|Sorry for the inconvenience but we're performing some maintenance at the moment.|We'll \
        be back online shortly.
    Site Temporarily Unavailable|The site you are trying to reach is temporarily unavailable.|Please try again later.
    Bandwidth Limit Exceeded|The server is temporarily unable to service your request due to the site owner \
        reaching his/her bandwidth limit.|Please try again later.
""")
MOVED = _lines("""
    This page has moved|This page has moved to a new address.|If you are not redirected automatically, click here.
    We've moved!|Our website has a new home.|Please update your bookmarks.
    Redirecting...|You are being redirected.|Click here if nothing happens within 5 seconds.
    Document Moved|Object moved to here.|
""")
NO_RESULTS = _lines("""
    Search Results for: {q}|Nothing Found|Sorry, but nothing matched your search terms. Please try again with \
        some different keywords.
    Your search - {q} - did not match any documents.|No results|Suggestions: Make sure all words are spelled \
        correctly. Try different keywords.
    0 results for "{q}"|No products found|Try checking your spelling or use more general terms.
    Search|No results found for {q}|Try a new search.
""")

# -- navigation ---------------------------------------------------------------------------------------------------
CATEGORIES = _pipes("""
    News|World|Business|Technology|Science|Health|Sports|Entertainment|Travel|Food & Drink|Style|Opinion|Video
    Electronics|Computers|Laptops|Tablets|Phones|Accessories|Cameras|TV & Audio|Home & Kitchen|Garden|Toys|Baby
    Fashion|Men|Women|Kids|Shoes|Jewelry|Sports & Outdoors|Automotive|Books|Music|Movies|Video Games|Pet Supplies
""")
MONTHS = "January February March April May June July August September October November December"
FACETS = ("Brand", "Price", "Color", "Size", "Customer Rating", "Material", "Availability", "Condition", "Seller")

# -- comments -----------------------------------------------------------------------------------------------------
PRAISE = _lines("""
    Great post! Visit my site for more.
    Thanks for sharing, very informative.
    I have been browsing online for hours today and never found an article as interesting as yours.
    Wow, awesome blog layout! How long have you been blogging for?
    Hi there, I found your site via Google while searching for a related topic. It looks great!
    Nice post. I learn something new on sites I stumble upon every day.
    Keep up the good work!
    This is really interesting, you are a very skilled blogger. I have joined your feed.
    What a relief to find someone who actually knows what they are talking about on the internet.
    Very nice article, exactly what I needed.
    Pretty section of content. I just stumbled upon your weblog and wanted to say I enjoyed your posts.
    Hello! Do you know if they make any plugins to help with SEO? Please share if you do!
    I'm not sure where you're getting your info, but great topic.
    Heya, first time here. I find this board really useful and it helped me out a lot.
    Excellent blog here! Also your website loads up very fast!
    I bookmarked it. Thanks!
    Appreciate the recommendation. Will try it out.
    Hmm it looks like your blog ate my first comment, so I'll just sum it up: I really enjoy your blog.
""")
PITCHES = _lines("""
    Buy cheap {drug} online without prescription, fast worldwide shipping: {link}
    Best online casino {year}: get 200 free spins with no deposit! {link}
    Looking for cheap {drug}? Order here {link} discreet packaging
    {drug} 100mg best price guaranteed {link}
    Play slots for real money, instant withdrawal! {link}
    Hot singles in your area are waiting for you {link}
    Make $500 a day working from home, no experience needed: {link}
    Get 10,000 Instagram followers for $9 {link}
    Free bitcoin every hour!!! {link}
    Need a fake diploma? Real university degrees, fast delivery {link}
""")
DRUGS = ("viagra", "cialis", "tramadol", "xanax", "phentermine", "levitra", "modafinil", "ambien", "generic cialis")
RECOVERY = _lines("""
    I lost ${amt} to a fake {platform} investment platform and thought I would never see it again. A friend \
        introduced me to {hacker} and within {n} days they recovered everything. Contact them: {email} or \
        WhatsApp {phone}.
    Beware of online brokers!!! I was scammed of ${amt} in {platform} but thanks to {hacker} I got my funds \
        back. They are legit, reach them on {email}.
    My husband was cheating and I needed proof. {hacker} hacked his phone remotely in {n} hours. Email {email}, \
        highly recommended!!!
    If you need help recovering stolen crypto, contact {hacker} via {email}. They helped me recover ${amt} from \
        {platform}. God bless them.
""")
HACKERS = ("CYBER GENIE RECOVERY", "Mr. Kevin Hacks", "Fast Recovery Pro", "WIZARD LARRY", "Spy Tech Solutions",
           "DIGITAL ASSET RESCUE", "Hack Rebound Team")
PLATFORMS = ("bitcoin mining", "forex", "crypto trading", "binary options", "NFT", "USDT staking")
FOREIGN_COMMENTS = _lines("""
    ru|Отличная статья, спасибо автору! Кстати, загляните на {link}
    ru|Купить диплом недорого с доставкой по всей России {link}
    ru|Интересно, а где можно почитать подробнее? Вот тут нашел: {link}
    id|Situs slot gacor terpercaya dengan winrate tertinggi hari ini, daftar sekarang di {link}
    id|Artikel yang sangat bermanfaat, terima kasih sudah berbagi! Kunjungi juga {link}
    id|Agen togel online resmi, bonus new member 100% {link}
    pt|Ótimo artigo, parabéns! Visite também {link}
    pt|Muito bom o conteúdo, já salvei nos favoritos. Confira {link}
    pl|Świetny wpis, pozdrawiam! Zapraszam też na {link}
    pl|Tanie kredyty bez BIK, decyzja w 15 minut {link}
    de|Toller Beitrag, vielen Dank! Schaut auch mal hier vorbei: {link}
    es|Excelente artículo, muchas gracias. Les dejo mi web {link}
    fr|Super article, merci pour le partage ! Voir aussi {link}
    it|Articolo molto interessante, complimenti! Visitate {link}
""")
SPINTAX_COMMENTS = (
    "{Hey|Hi|Hello} there! {This post|This article|This blog post} {couldn't|could not} be {written|written any} "
    "{better|more effectively}! {Reading through|Looking through|Going through} this {post|article} reminds me of my "
    "{old|previous} {room mate|roommate}! He {always|constantly|continually} kept "
    "{talking about|preaching about} this. "
    "{Thanks|Thank you|Many thanks} for sharing!",
    "{I'm|I am} {really|truly|extremely} {enjoying|loving} the {design and layout|theme/design|template} of your "
    "{blog|website|site}. It's a very easy on the eyes which makes it much more {enjoyable|pleasant} for me to come "
    "here and visit more often. Did you hire out a {designer|developer} to create your theme? {Great|Superb|Fantastic} "
    "work!",
    "{Wonderful|Excellent|Good|Great} {blog|site|web site} {you have|you've got} here but I was {wondering|curious} "
    "if you knew of any {message boards|discussion boards|user discussion forums} that cover the same topics "
    "{talked about|discussed} {here|in this article}? I'd really {like|love} to be a part of {community|group} where "
    "I can get {feedback|advice|suggestions} from other {knowledgeable|experienced} {people|individuals} that share "
    "the same interest.",
    "{Its|It's} {like you read my mind|as if you read my mind}! You {seem|appear} to know {so much|a lot} about this, "
    "like you wrote the book in it or something. I think that you {could|can} do with {some|a few} pics to drive the "
    "message home a {bit|little bit}, but {other than|instead of} that, this is {great|fantastic|wonderful} blog.",
)
COMMENT_NAMES = ("Kasey", "Margarette", "Lorri", "Jefferey", "Noreen", "Delia", "Shawn", "Rosaria", "Tyrone",
                 "Marco", "Alisha", "Brenton", "Emilia", "Vern", "Lashonda", "Kristofer", "Reginald", "Ilse")

# -- reviews and ads ----------------------------------------------------------------------------------------------
BRAND_PARTS = (_wordlist("Ultra Pro Max Neo Vita Slim Keto Glow Flex Zen Nutra Derma Power Smart Aero Lumi Prime"),
               _wordlist("Burn Fit Boost X Plus Lux Clean Shape Max Cure Lift Pure Tone Genix Slim"))
PRODUCT_KINDS = _pipes("""
    Keto Gummies|Air Fryer|Wireless Earbuds|Posture Corrector|Anti-Aging Serum|Hair Growth Oil|Portable Blender
    Massage Gun|Teeth Whitening Kit|Solar Power Bank|Dash Cam|Smart Watch|CBD Oil|Brain Supplement|Knee Brace
""")
BENEFITS = ("lost 23 lbs", "my joint pain is gone", "look 10 years younger", "my hair grew back",
            "saved hundreds of dollars", "sleep like a baby", "doubled my energy", "my skin is glowing",
            "no more back pain", "feel amazing every day")
REVIEW_LINES = _lines("""
    Best product ever!!! {Product} changed my life, {benefit} in just {n} days!!!
    I was skeptical at first but WOW. {Benefit}. Highly recommend!!!
    5 stars!!!!! Arrived fast and works perfectly. Buy it now, you won't regret!!!
    Amazing!!! My whole family uses {product} now. {Benefit}!!!
    Don't waste money on other brands, {product} is the BEST!!! {Benefit}.
    Perfect product, perfect seller, perfect price!!! 10/10 would buy again!!!
    I bought 3 of them!!! {Benefit} and my wife loves it too!!!
    Life changing!!! Thank you {product}!!!
""")
AD_LINES = _lines("""
    🔥🔥 LIMITED TIME OFFER 🔥🔥
    Get {pct}% OFF {Product} TODAY ONLY!!!
    ✅ Free Shipping ✅ 60-Day Money Back Guarantee ✅ Secure Checkout
    👉 CLICK HERE TO ORDER NOW 👈
    Only {n} left in stock!!! Hurry!!!
    Offer ends at midnight!!!
    As seen on TV!!!
    Doctors don't want you to know about this!!!
    Buy 2 Get 1 FREE!!!
    ⭐⭐⭐⭐⭐ Rated 4.9/5 by {k} customers
    SALE SALE SALE!!! Everything must go!!!
    Why pay more??? {Product} only ${price}!!!
""")
SALES_LETTER = _lines("""
    <h2>ATTENTION: Are You Tired Of {Problem}???</h2>
    <p>If you answered YES, then this is the most important letter you will ever read!!!</p>
    <p>My name is {name} and just {n} months ago I was exactly where you are now...</p>
    <p>Then I discovered <b>{Product}</b>, the secret that the big companies DON'T want you to know!!!</p>
    <h2>Here's What You Get:</h2>
    <ul><li>✔ {Benefit} FAST</li><li>✔ 100% natural, no side effects</li><li>✔ Works for EVERYONE</li></ul>
    <p>But wait... there's MORE!!! Order today and get TWO FREE BONUSES worth ${price}!!!</p>
    <p><b>WARNING:</b> This special price could be gone at ANY moment!!!</p>
    <p>Normally ${price2}, TODAY ONLY ${price}!!! That's {pct}% OFF!!!</p>
    <p>You have absolutely NOTHING to lose!!! 365-day money back guarantee!!!</p>
    <p><a class="btn-order" href="/order">YES! I WANT {Product} NOW!!!</a></p>
    <p>P.S. Remember, {Benefit} is just ONE CLICK away!!! Don't wait!!!</p>
""")
PROBLEMS = ("Belly Fat", "Joint Pain", "Hair Loss", "Wrinkles", "Being Broke", "Low Energy", "Snoring", "Back Pain")
APP_REVIEWS = _lines("""
    Best app ever!!!!!
    5 stars!!! love it
    Amazing game, so addictive!!!
    Very good app 👍👍👍
    Nice
    Super app ⭐⭐⭐⭐⭐
    I love this app so much!!! Everyone should download it!!!
    Good good good
    Wow wow wow!!! Perfect!!!
    Excellent app, very useful, thank you developers!!!
""")

# -- walls --------------------------------------------------------------------------------------------------------
COOKIE_WALLS = _lines("""
    en|We value your privacy|We and our {n} partners use cookies and similar technologies to store and access \
        information on your device, for personalised ads and content, ad and content measurement, audience \
        insights and product development.|Accept all|Reject all|Manage preferences
    en|This website uses cookies|By clicking "Accept", you agree to the storing of cookies on your device to \
        enhance site navigation and analyze site usage.|Accept|Decline|Cookie settings
    de|Wir respektieren Ihre Privatsphäre|Wir und unsere {n} Partner verwenden Cookies und ähnliche \
        Technologien, um Informationen auf Ihrem Gerät zu speichern und abzurufen.|Alle \
        akzeptieren|Ablehnen|Einstellungen
    fr|Nous respectons votre vie privée|Nos {n} partenaires et nous utilisons des cookies pour stocker et \
        accéder à des informations sur votre appareil.|Tout accepter|Tout refuser|Personnaliser
""")
PAYWALLS = _lines("""
    Subscribe to continue reading|You've read your {n} free articles this month.|Get unlimited digital access \
        for ${p}/month.|Already a subscriber? Log in
    This article is for subscribers only|Support quality journalism.|Subscribe now for just ${p} a week.|Sign in
    You have reached your limit of free articles|Become a member to keep reading.|Start your free trial|Log in
""")
LOGINS = _lines("""
    Sign in to continue|Email|Password|Forgot password?|Create account|Continue with Google
    Log in|Username or email address|Password|Remember me|Lost your password?|Register
    Members only|Please log in to view this content.|Login|Not a member yet? Join now|Reset password|Sign up free
""")
AGE_GATES = _lines("""
    Are you of legal drinking age?|You must be 21 or older to enter this site.|Yes, I am 21+|No
    Age verification|This website contains material intended for adults only. Are you 18 years or older?|Enter|Leave
    Please enter your date of birth|You must be of legal smoking age to view this site.|Submit|Exit
""")
GEO_BLOCKS = _lines("""
    Sorry, this content is not available in your region.|Due to licensing restrictions, we cannot show this \
        page in your country.
    451: Unavailable for legal reasons|This website is currently unavailable to visitors from your location.
    Access restricted|Our services are not available in your country. We apologise for any inconvenience.
""")
NEWSLETTER = _lines("""
    Before you go!|Join {k} readers and get our free guide delivered to your inbox.|Your email address|Send me \
        the guide|No thanks
    Wait! Don't leave empty-handed|Get 15% off your first order when you sign up.|Enter your email|Get my \
        discount|I don't like discounts
    Subscribe to our newsletter|Never miss an update. We promise not to spam you.|Email|Subscribe|Maybe later
""")

# -- placeholders -------------------------------------------------------------------------------------------------
LOREM = _wordlist("""lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut
    labore et
    dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo
    consequat duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur excepteur sint
    occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum curabitur vitae nunc
    dignissim sodales morbi tristique senectus netus malesuada fames ac turpis egestas pellentesque habitant
    vestibulum ante primis faucibus orci luctus ultrices posuere cubilia curae aenean pharetra mauris""")
CMS_DEFAULTS = _lines("""
    Hello world!|Welcome to WordPress. This is your first post. Edit or delete it, then start writing!
    Sample Page|This is an example page. It is different from a blog post because it stays in one place and \
        shows up in your site navigation.
    Welcome to your new site|This is the home page of your new website. Click edit to change this text.
    Test post|test test test
    Untitled|This page intentionally left blank.
    New Page|Add your content here.
""")
DEMO_BLOCKS = _lines("""
    Your Title Here|Write a short description of your business here.
    Feature One|Describe your feature here. Lorem ipsum dolor sit amet.
    Feature Two|Describe your feature here. Lorem ipsum dolor sit amet.
    Our Services|Service description goes here.
    Team Member Name|Position / Job Title
    Basic Plan|$29/mo - Feature 1 - Feature 2 - Feature 3
    Client Name|"Testimonial text goes here. Lorem ipsum dolor sit amet."
    Call to action|Click the button below to get started.
""")
UNFILLED = ("Welcome to {{site_name}}!", "{{ page.title }}", "{{ post.excerpt }}", "[product_name] - [price]",
            "%%title%% %%sep%% %%sitename%%", "${description}", "undefined", "NaN", "[object Object]",
            "<%= content %>", "{$article.body}", "[insert text here]", "TODO: add copy", "null")
