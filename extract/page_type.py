"""Web page type (article, forum, product, collection, listing, documentation, service) from DOM, URL, JSON-LD and
meta features, by a small multinomial logistic regression.

Labels and evaluation: WCXB, the Web Content Extraction Benchmark (Foley 2026, v1.0, CC-BY-4.0;
``../shared/data/wcxb``). Its seven page types are ours; its older ``category`` label is read as ``collection``,
as WCXB's evaluate.py does. The model is trained in-project on all 1,497 labelled pages of WCXB's dev split by
``scripts/train_page_type.py`` and shipped as JSON (``extract/models/page_type.json``, no pickle); WCXB's test
split is never used. The kinds of evidence (URL path patterns, schema.org types, ``og:type``, prices and cart
buttons, forum platforms, docs generators, link density, element counts) follow what rs-trafilatura's page-type
classifier is known to use (Murrough-Foley/rs-trafilatura: an XGBoost model of 200 trees on 181 features for the
same seven types); the code and the feature list are written here.

Accuracy, 5-fold cross-validation grouped by registered domain on the 1,497 WCXB dev pages (1,238 domains; sklearn
``GroupKFold``: no site in both train and test; ``scripts/train_page_type.py --compare``): 0.870 (1,303 pages;
macro F1 0.818). Per type, F1 (precision / recall): article 0.932 (0.899 / 0.967), forum 0.959 (0.991 / 0.929),
product 0.820 (0.883 / 0.765), collection 0.746 (0.766 / 0.726), listing 0.619 (0.683 / 0.566), documentation
0.913 (0.963 / 0.868), service 0.738 (0.750 / 0.727). The commonest errors: service pages read as articles (36 of
165) and listings read as articles (22 of 99); their main content is prose too, and WCXB's labels there are
judgement calls (a city department's page, a course catalogue, a news site's front page).

Choices and where they come from (all measured in that CV):

- Logistic regression, not gradient-boosted trees: trees were to be used only if they beat the linear model by
  more than about 2 points; sklearn's HistGradientBoostingClassifier (200 iterations of 7-leaf trees, the best of
  four settings: ``TREE_PARAMS`` in the script) scored 0.874 (macro F1 0.822), 0.3 points more, within the noise
  of 1,497 pages (one page is 0.07 points). The linear model is a 57 KB JSON file and one matrix-vector product.
- ``LINEAR_PARAMS["C"]`` = 0.03: the best of 0.01-1, tied with 0.02 (0.01: 0.867, 0.02 and 0.03: 0.870, 0.1:
  0.860, 0.3: 0.849, 1: 0.842); strong regularisation suits the many correlated counts.
- Features were cut by ablation: words in ``class``/``id`` names (168 features: ``product-card``, ``postbody``,
  ``toctree``, ...), repeated-class shapes ("24 elements share one card class") and each tag's share of all
  elements gained nothing (trees, then: 0.862 with them, 0.874 without) and cost 0.4 ms a page, so they are gone.
  Of the groups kept, dropping the URL costs 3.8 points, the title, itemprops, tags or phrases 0.4-0.6 each;
  schema.org types, meta tags and platform markers make no difference on WCXB, where few pages carry the telling
  ones, and are kept as the strongest evidence on pages that do (a ``Product`` in JSON-LD, a Discourse generator).
- A missing URL gives zeros, with no "missing" marker: 5 WCXB pages lack one, too few to learn it from.
- Counts enter as ``log1p(count)``; ratios are in [0, 1]; markers are 0/1. The model standardises them.

Features (``FEATURE_NAMES``, ``page_features``), read from the full parsed tree (``extract.parse.parse_html``,
``<head>`` included, before anything is stripped) without changing it:

- ``url.*``: path depth, length, query parameters (Google's ``srsltid`` shopping tag excluded: it marks how
  WCXB's URLs were collected, not the page), extension, a date, year or long number in the path, slug length; path
  words, single-letter segments (``/p/``, ``/t/``, ``/c/``) and host labels (``docs.``, ``forum.``) by the type
  they hint at;
- ``title.*``: ``<title>`` words by type ("documentation", "forum", "shop", "services", ...);
- ``schema.*``: schema.org types in JSON-LD (``"@type"``, read with a regex, so broken JSON still counts) and
  microdata ``itemtype`` (Product, Offer, NewsArticle, BlogPosting, TechArticle, DiscussionForumPosting, QAPage,
  FAQPage, CollectionPage, ItemList, BreadcrumbList, Service, Organization, LocalBusiness, SoftwareApplication,
  ...); ``itemprop.*``: telling ``itemprop`` names (price, author, comment, answer, ...);
- ``meta.*``: ``og:type``, product price tags, article publication, section and author tags, reading-time labels,
  ``rel=next``/``prev``, RSS, AMP, a generator tag;
- ``platform.*``: forum software (Discourse, phpBB, vBulletin, XenForo, Invision, ...), Q&A sites (Stack Exchange,
  Reddit), docs generators (Sphinx/Read the Docs, MkDocs, Docusaurus, GitBook, ...), shop systems (Shopify,
  WooCommerce, Magento, ...), CMSs, in groups (one platform alone is too rare in 1,497 pages to learn), looked for
  in the generator tag, script and stylesheet URLs and the ``<html>``/``<body>`` attributes; ``body.*``: WordPress-
  style ``<body>`` classes (``single-post``, ``archive``, ``single-product``, ...);
- ``tag.*``, ``input.*``: counts of elements (``article``, ``h2``, ``li``, ``form``, ``pre``, ``time``, ...) and
  of input types; ``link.*``: in-page anchors, ``tel:``/``mailto:``, user-profile, tag and paging links,
  ``rel=ugc``, external share, headings that are links, link texts of a headline's length;
- ``text.*``: text length, link density, long text nodes and the share of text in them, prices (a currency sign in
  a short text), dates (a year 2000-2049 in one), "N replies"-style counters, "ago", reading time; ``phrase.*``:
  short texts (at most 40 characters: buttons, labels) that are UI phrases of one type ("add to cart", "reply",
  "edit this page", "sort by", "read more", "contact us", "share", ...), and Sphinx-style "¶" permalinks.

Speed: one ``tree.iter()`` over the elements (tag and text), one over the dozen telling tags (``meta``, ``script``,
``link``, headings, ...), each link's text serialised by libxml2, and four XPath attribute scans; text patterns are
``str.count`` or regexes that start with a literal (a first version's character-class regexes cost 0.5 ms a page).
On the 1,497 WCXB dev pages (median 139 KB, 977 elements; best of 3 per page, parse not included, 2 cores shared
with other work, so +-20% between runs): median 1.4-1.7 ms, p90 3.4-4.1 ms, the slowest (2 MB, 15,800 elements)
23-48 ms. Against plain ``trafilatura.extract(html, favor_precision=True)`` on every 8th page: 1.55 ms against
35 ms median, 4.1% of its total time (2.2 ms against 50 ms on pages of 200-400 KB). ``classify`` adds the model's
product, under 0.01 ms; the model file is read once per process (under 1 ms).
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from lxml import etree

PAGE_TYPES: tuple[str, ...] = ("article", "forum", "product", "collection", "listing", "documentation", "service")
LABEL_ALIASES = {"category": "collection"}  # WCXB evaluate.py's mapping of its older label
MODEL_PATH = Path(__file__).parent / "models" / "page_type.json"
MODEL_FORMAT = "winnow-page-type"
MODEL_FORMAT_VERSION = 1
REBUILD_COMMAND = ".venv/bin/python scripts/train_page_type.py"
LINEAR_PARAMS: dict[str, Any] = {"C": 0.03, "max_iter": 5000}

# ---------------------------------------------------------------------------------------------- feature tables
# URL path words (the path split at every non-alphanumeric character, lowercase) by the page type they hint at.
# Single letters are whole path segments only (/p/, /t/, /c/, /r/, /b/): as words they would match any slug.
_URL_WORDS: dict[str, frozenset[str]] = {
    "product": frozenset({"product", "products", "dp", "itm", "item", "app", "buy", "sku", "pd", "gp"}),
    "collection": frozenset({"collections", "collection", "category", "categories", "catalog", "catalogue", "browse",
                             "shop", "store", "department", "departments", "genre", "plp", "range", "brands",
                             "brand", "cat", "catpage", "sale", "all"}),
    "forum": frozenset({"forum", "forums", "thread", "threads", "topic", "questions", "question", "comments",
                        "community", "discussion", "discussions", "discuss", "viewtopic", "showthread",
                        "showtopic", "board", "boards", "answers", "qa"}),
    "docs": frozenset({"docs", "doc", "documentation", "guide", "guides", "manual", "reference", "api", "learn",
                       "tutorial", "tutorials", "handbook", "wiki", "library", "howto", "book", "latest", "stable",
                       "usersguide", "lang", "man", "help", "kb", "sdk"}),
    "article": frozenset({"blog", "blogs", "news", "article", "articles", "post", "posts", "story", "stories",
                          "insights", "pulse", "magazine", "journal", "opinion", "review", "reviews", "best", "how",
                          "why", "what", "vs", "tips", "ideas", "trends"}),
    "listing": frozenset({"tag", "tags", "topics", "archive", "archives", "list", "lists", "jobs", "search", "page",
                          "recent", "sections", "section", "hub", "directory", "results", "index", "trending",
                          "shows", "podcasts", "courses", "events", "feed", "home"}),
    "service": frozenset({"services", "service", "solutions", "solution", "platform", "pricing", "features", "about",
                          "contact", "plans", "consulting", "agency", "company", "insurance", "hire", "enterprise",
                          "business", "support", "pages", "tools", "software"}),
}
_URL_SEGMENTS: dict[str, frozenset[str]] = {
    "product": frozenset({"p", "dp", "itm", "ip"}),
    "collection": frozenset({"c", "b", "s", "l"}),
    "forum": frozenset({"t", "r", "u", "q"}),
}
_HOST_LABELS: dict[str, frozenset[str]] = {
    "docs": frozenset({"docs", "doc", "developer", "developers", "dev", "learn", "wiki", "api", "help", "support",
                       "readthedocs", "devdocs", "manual", "reference"}),
    "forum": frozenset({"forum", "forums", "community", "communities", "discuss", "discourse", "answers", "board",
                        "boards", "talk", "reddit", "stackoverflow", "stackexchange", "superuser", "serverfault",
                        "askubuntu", "lemmy", "tapatalk", "quora"}),
    "shop": frozenset({"shop", "store", "shopping", "buy", "amazon", "ebay", "etsy", "walmart", "target"}),
    "blog": frozenset({"blog", "blogs", "news", "medium", "substack", "magazine"}),
}
_TITLE_WORDS: dict[str, frozenset[str]] = {
    "docs": frozenset({"documentation", "docs", "doc", "reference", "api", "guide", "manual", "tutorial", "handbook",
                       "library", "function", "method", "class", "module", "syntax", "sdk"}),
    "forum": frozenset({"forum", "forums", "community", "thread", "question", "questions", "discussion", "reddit",
                        "overflow", "exchange", "help", "issue", "problem", "solved", "anyone"}),
    "shop": frozenset({"shop", "store", "buy", "price", "sale", "cart", "collection", "shipping", "free", "online",
                       "official", "men's", "women's", "mens", "womens", "size"}),
    "blog": frozenset({"news", "blog", "how", "why", "what", "best", "guide", "tips", "ways", "review", "vs"}),
    "service": frozenset({"services", "service", "solutions", "company", "agency", "consulting", "platform",
                          "software", "pricing", "near", "experts", "professional", "contact", "insurance"}),
    "listing": frozenset({"latest", "jobs", "archive", "archives", "results", "page", "category", "topics", "list",
                          "all", "top", "trending", "remote"}),
}
_WORD = re.compile(r"[a-z0-9']+")
_URL_DATE = re.compile(r"/(?:19|20)\d\d[/-](?:0?[1-9]|1[0-2])(?:[/-]|$)|(?:19|20)\d\d-\d\d-\d\d|/(?:19|20)\d{6}/")
_URL_YEAR = re.compile(r"(?:^|\D)(?:199\d|20[0-3]\d)(?:\D|$)")
_LONG_NUMBER = re.compile(r"\d{5,}")

# schema.org types (JSON-LD "@type", microdata itemtype); the types of one group count as one feature
_SCHEMA_TYPES: dict[str, tuple[str, ...]] = {
    "product": ("Product", "ProductGroup", "IndividualProduct", "ProductModel", "Vehicle", "Car"),
    "offer": ("Offer", "AggregateOffer"),
    "rating": ("AggregateRating",),
    "review": ("Review",),
    "article": ("Article", "Report", "ScholarlyArticle", "OpinionNewsArticle", "AnalysisNewsArticle"),
    "news_article": ("NewsArticle", "ReportageNewsArticle"),
    "blog_posting": ("BlogPosting", "LiveBlogPosting", "SocialMediaPosting"),
    "tech_article": ("TechArticle", "APIReference"),
    "forum_posting": ("DiscussionForumPosting",),
    "qa_page": ("QAPage",),
    "question": ("Question",),
    "answer": ("Answer",),
    "comment": ("Comment",),
    "faq_page": ("FAQPage",),
    "collection_page": ("CollectionPage", "SearchResultsPage", "OfferCatalog"),
    "item_list": ("ItemList",),
    "list_item": ("ListItem",),
    "breadcrumb": ("BreadcrumbList",),
    "service": ("Service", "ProfessionalService", "FinancialService", "LegalService", "HomeAndConstructionBusiness",
                "MedicalBusiness", "InsuranceAgency", "EmploymentAgency"),
    "organization": ("Organization", "Corporation", "NewsMediaOrganization", "EducationalOrganization",
                     "GovernmentOrganization", "NGO"),
    "local_business": ("LocalBusiness", "Store", "Restaurant", "Dentist", "Attorney", "MovingCompany", "Plumber",
                       "Electrician", "HVACBusiness", "RealEstateAgent", "AutoRepair"),
    "software": ("SoftwareApplication", "WebApplication", "MobileApplication", "VideoGame", "SoftwareSourceCode"),
    "web_page": ("WebPage",),
    "about_page": ("AboutPage", "ContactPage"),
    "web_site": ("WebSite",),
    "person": ("Person",),
    "event": ("Event",),
    "recipe": ("Recipe",),
    "job": ("JobPosting",),
    "howto": ("HowTo",),
    "video": ("VideoObject",),
    "course": ("Course",),
    "brand": ("Brand",),
    "site_navigation": ("SiteNavigationElement",),
    "image": ("ImageObject",),
}
_SCHEMA_INDEX = {name.lower(): group for group, names in _SCHEMA_TYPES.items() for name in names}
_JSON_TYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')
_QUOTED = re.compile(r'"([^"]*)"')

_ITEMPROPS: dict[str, tuple[str, ...]] = {
    "price": ("price", "pricecurrency", "lowprice", "highprice", "availability", "sku", "gtin13", "gtin", "mpn"),
    "offers": ("offers",),
    "author": ("author", "creator"),
    "date": ("datepublished", "datecreated", "datemodified", "uploaddate"),
    "headline": ("headline", "articlebody", "articlesection"),
    "comment": ("comment", "commentcount", "comments"),
    "answer": ("answer", "acceptedanswer", "suggestedanswer", "answercount", "upvotecount"),
    "text": ("text",),
    "list_element": ("itemlistelement", "numberofitems"),
    "review": ("review", "aggregaterating", "ratingvalue", "reviewcount"),
    "name": ("name",),
    "url": ("url",),
    "image": ("image",),
    "description": ("description",),
}
_ITEMPROP_INDEX = {name: group for group, names in _ITEMPROPS.items() for name in names}

_OG_TYPES = ("article", "product", "website", "profile", "video", "book", "other")

# Substrings of the page's signature (generator tags, script and stylesheet URLs, <html>/<body> attributes), in
# groups: one platform is too rare among 1,497 pages for a feature of its own to be learnt
_PLATFORMS: dict[str, tuple[str, ...]] = {
    "forum_software": ("discourse", "phpbb", "vbulletin", "xenforo", "invision", "ipsapp", "mybb", "smf", "flarum",
                       "nodebb", "vanilla", "khoros", "lithium", "tapatalk", "bbpress", "lemmy"),
    "qa_site": ("stackexchange", "sstatic.net", "reddit"),
    "docs_generator": ("sphinx", "readthedocs", "_static/", "docutils", "mkdocs", "docusaurus", "gitbook", "docsify",
                       "vitepress", "mintlify", "redoc", "swagger", "javadoc", "rustdoc", "doxygen", "mdbook",
                       "antora", "starlight", "devsite"),
    "shop_system": ("shopify", "woocommerce", "magento", "mage/", "bigcommerce", "prestashop", "demandware", "ecwid",
                    "opencart", "vtex", "shopware", "salesforce commerce"),
    "wordpress": ("wp-content", "wp-includes", "wordpress"),
    "blog_platform": ("ghost", "substack", "blogger", "blogspot", "medium", "tumblr"),
    "site_builder": ("wix", "squarespace", "webflow", "framer", "elementor", "hubspot"),
    "cms": ("drupal", "joomla", "sitecore", "typo3"),
    "spa": ("_next/", "gatsby", "nuxt"),
    "word_forum": ("forum", "community"),
    "word_docs": ("docs", "documentation"),
    "word_product": ("product", "shop"),
}
_PLATFORM_NAMES = tuple(_PLATFORMS)

# short texts (buttons, labels, counters: at most _SHORT characters) that are UI phrases of one type, matched whole
# and lowercase
_SHORT = 40
_PHRASES: dict[str, tuple[str, ...]] = {
    "cart": ("add to cart", "add to bag", "add to basket", "buy now", "add to trolley", "in stock", "out of stock",
             "sold out", "pre-order", "preorder", "add to wishlist", "quantity", "qty", "buy it now", "select size",
             "size guide", "free shipping", "free delivery", "add to list", "description", "specifications",
             "reviews", "write a review", "customer reviews", "product details", "details", "sku", "color", "colour",
             "size"),
    "forum": ("reply", "replies", "quote", "report", "joined", "posts", "like", "likes", "solved", "views",
              "thread starter", "permalink", "upvote", "answered", "asked", "accepted answer", "moderator",
              "members", "member", "new member", "well-known member", "op", "original poster", "share", "link",
              "messages", "reaction score", "reactions", "post reply", "reply with quote", "add a comment",
              "your answer", "follow", "flag", "edit", "top", "best", "new", "hot", "level 1", "thread", "topic",
              "unread", "last post", "jump to", "subscribe", "bookmark", "report post"),
    "docs": ("edit this page", "on this page", "table of contents", "contents", "next", "previous", "copy",
             "note", "warning", "tip", "important", "caution", "parameters", "returns", "return value", "example",
             "examples", "syntax", "see also", "api reference", "search docs", "was this page helpful?",
             "improve this page", "view source", "show source", "in this article", "feedback",
             "navigation", "index", "modules", "attributes", "methods", "description", "overview", "usage",
             "prerequisites", "copy code", "copied!", "on this page", "theme", "version", "edit on github",
             "report an issue", "next steps", "raises", "type", "default"),
    "listing": ("read more", "continue reading", "load more", "view all", "see all", "older posts", "newer posts",
                "next page", "show more", "more stories", "latest", "apply", "apply now", "more", "previous page",
                "page 1", "1", "2", "3", "next »", "« previous", "view more", "most popular", "trending",
                "latest news", "top stories", "full-time", "remote", "new"),
    "collection": ("sort by", "filter", "filters", "refine", "clear all", "price", "brand", "results", "items",
                   "products", "showing", "view as", "grid", "list", "compare", "quick view", "quick shop",
                   "add to compare", "availability", "featured", "best selling", "price, low to high",
                   "price: low to high", "clear", "apply", "reset", "show filters", "shop now", "shop all", "sale",
                   "new arrivals", "colour", "color", "size", "category", "rating", "best sellers", "shop"),
    "service": ("contact us", "get started", "request a demo", "get a quote", "free quote", "book a call",
                "schedule a consultation", "learn more", "book now", "get in touch", "call now", "our services",
                "testimonials", "free consultation", "sign up", "start free trial", "try for free", "try it free",
                "pricing", "how it works", "why choose us", "faq", "faqs", "frequently asked questions",
                "request a quote", "talk to sales", "contact sales", "get a demo", "book a demo", "schedule a call",
                "call us", "services", "our team", "about us", "case studies", "features", "solutions",
                "get started for free", "start now", "sign up free", "free trial", "plans", "enterprise"),
    "article": ("share", "min read", "by", "posted", "published", "updated", "author", "related articles",
                "related posts", "comments", "leave a reply", "leave a comment", "tags", "about the author",
                "subscribe", "newsletter", "share this", "share this article", "print", "written by",
                "recent posts", "related stories", "you may also like", "read next", "advertisement",
                "share on facebook", "share on twitter", "tweet", "facebook", "twitter", "linkedin", "email",
                "filed under", "categories", "posted in", "reviewed by", "medically reviewed by", "sources"),
}
# stripped from both ends of a short text before it is looked up ("Joined:", "Next »", "Copied!"), and from the
# phrases above, which then match those texts
_EDGE_PUNCT = " :.!?·•|()[]-–—*→›»«‹<>"
_PHRASE_GROUPS = tuple(_PHRASES)
_PHRASE_LISTS = tuple(tuple(dict.fromkeys(p.strip(_EDGE_PUNCT) for p in _PHRASES[g])) for g in _PHRASE_GROUPS)
# Over the short texts joined by newlines, with str.count (a C scan) or a regex that starts with a literal (sre
# searches for it like str.find): a first version's regexes starting at a character class ("[$€£]\\s?\\d",
# "(?<!\\d)(?:19|20)\\d\\d", months, "N units ago") cost about 0.5 ms a page on their own, more than parsing
# them was worth. A currency sign in a short text is nearly always a price; a year 2000-2049 in one, a date.
_CURRENCY = ("$", "€", "£", "¥", "₹")
_YEAR = re.compile(r"20[0-4]\d(?!\d)")
_AGO = (" ago", "yesterday")
_COUNTERS = (" replies", " reply", " views", " comments", " answers", " votes", " posts", " likes", " messages",
             " members", " reactions", " points")
_READ_TIME = ("min read", "minute read", "mins read")
_SPECIAL_TAGS = ("h1", "h2", "h3", "h4", "meta", "script", "link", "input", "title", "html", "body")
_NO_TEXT = frozenset({"script", "style", "noscript", "template", "title"})

# counted elements
_TAGS = ("a", "p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "article", "section", "form", "input", "button",
         "select", "option", "table", "tr", "pre", "code", "img", "picture", "time", "nav", "aside", "header",
         "footer", "main", "blockquote", "dl", "iframe", "video", "svg", "figure", "kbd", "label", "textarea",
         "span", "div", "strong", "em", "meta", "script", "link", "iframe", "details", "summary", "address", "cite",
         "small", "sup", "var", "samp", "hr", "br")
_TAGS = tuple(dict.fromkeys(_TAGS))
_INPUT_TYPES = ("search", "email", "number", "radio", "checkbox", "hidden", "password", "text", "tel")


def _feature_names() -> tuple[str, ...]:
    names = ["url.depth", "url.path_chars", "url.query_params", "url.is_root", "url.ext_html",
             "url.ext_script", "url.date", "url.year", "url.long_number", "url.slug_words", "url.last_segment_chars",
             "url.trailing_slash"]
    names += [f"url.word.{g}" for g in _URL_WORDS]
    names += [f"url.segment.{g}" for g in _URL_SEGMENTS]
    names += [f"url.host.{g}" for g in _HOST_LABELS]
    names += ["url.host_labels"]
    names += [f"title.{g}" for g in _TITLE_WORDS]
    names += ["title.words", "title.separators"]
    names += [f"schema.{g}" for g in _SCHEMA_TYPES]
    names += ["schema.json_ld_scripts", "schema.types_total"]
    names += [f"itemprop.{g}" for g in _ITEMPROPS]
    names += [f"meta.og_type.{t}" for t in _OG_TYPES]
    names += ["meta.product_price", "meta.article_published", "meta.article_section", "meta.author",
              "meta.reading_time", "meta.twitter_large_image", "meta.rel_next", "meta.rel_prev", "meta.rss",
              "meta.amp", "meta.generator", "meta.description_chars"]
    names += [f"platform.{p}" for p in _PLATFORM_NAMES]
    names += [f"tag.{t}" for t in _TAGS]
    names += ["tag.elements", "tag.distinct"]
    names += [f"input.{t}" for t in _INPUT_TYPES]
    names += ["link.anchor", "link.tel", "link.mailto", "link.ugc", "link.nofollow", "link.user", "link.tag",
              "link.page_param", "link.headings", "link.heading_share", "link.external_share", "link.same_path"]
    names += ["text.prose_share", "link.headline_texts", "link.headline_share"]
    names += ["text.chars", "text.nodes", "text.nodes_80", "text.nodes_200", "text.longest", "text.link_chars",
              "text.link_density", "text.short_nodes", "text.chars_per_element", "text.prices", "text.dates",
              "text.ago", "text.counters", "text.read_time", "text.h1_chars"]
    names += [f"phrase.{g}" for g in _PHRASE_GROUPS]
    names += ["phrase.permalink"]
    names += ["body.single", "body.page", "body.archive", "body.home", "body.product", "body.collection",
              "body.forum", "body.docs", "body.blog", "body.search"]
    return tuple(names)


FEATURE_NAMES: tuple[str, ...] = _feature_names()
_INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}
assert len(_INDEX) == len(FEATURE_NAMES), "duplicate feature names"
_PLATFORM_NEEDLES = tuple((needle, _INDEX[f"platform.{name}"]) for name, needles in _PLATFORMS.items()
                          for needle in needles)

_BODY_WORDS: dict[str, tuple[str, ...]] = {
    "single": ("single", "post-template", "single-post", "postid"),
    "page": ("page-template", "page-id"),
    "archive": ("archive", "category", "tag-", "blog", "paged", "term-"),
    "home": ("home", "front-page", "frontpage", "index"),
    "product": ("single-product", "product-template", "template-product", "product-page", "catalog-product-view",
                "pdp", "product"),
    "collection": ("template-collection", "collection", "catalog-category-view", "product-category",
                   "tax-product_cat", "plp", "category-page", "listing", "search-results"),
    "forum": ("forum", "thread", "topic", "discourse", "phpbb", "xenforo", "community"),
    "docs": ("docs", "documentation", "sphinx", "wy-body", "md-", "theme-doc", "api"),
    "blog": ("blog", "news", "article"),
    "search": ("search",),
}

# ------------------------------------------------------------------------------------------------- the features
_local = threading.local()  # compiled XPath objects, one set per thread (lxml's evaluators are not shared)


def _xpaths() -> tuple[etree.XPath, ...]:
    found = getattr(_local, "xpaths", None)
    if found is None:
        found = tuple(etree.XPath(path, smart_strings=False) for path in (
            "//@itemprop", "//@itemtype", "//a/@href", "//a/@rel"))
        _local.xpaths = found
    return found


def _log(count: float) -> float:
    return math.log1p(count)


def _url_features(url: str | None, v: list[float]) -> None:
    at = _INDEX  # a local alias: this runs per page
    if not url:
        return  # all zeros (no "missing" marker: 5 of the 1,497 WCXB pages lack a URL, too few to learn one from)
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return
    path = parts.path.lower()
    segments = [s for s in path.split("/") if s]
    query = [q for q in parts.query.split("&") if q and not q.startswith("srsltid=")]
    last = segments[-1] if segments else ""
    v[at["url.depth"]] = float(len(segments))
    v[at["url.path_chars"]] = _log(len(path))
    v[at["url.query_params"]] = _log(len(query))
    v[at["url.is_root"]] = float(not segments and not query)
    v[at["url.ext_html"]] = float(last.endswith((".html", ".htm", ".shtml")))
    v[at["url.ext_script"]] = float(last.endswith((".php", ".asp", ".aspx", ".jsp", ".cfm", ".cgi")))
    v[at["url.date"]] = float(_URL_DATE.search(path) is not None)
    v[at["url.year"]] = float(_URL_YEAR.search(path) is not None)
    v[at["url.long_number"]] = float(_LONG_NUMBER.search(path) is not None)
    stem = last.rsplit(".", 1)[0] if "." in last else last
    v[at["url.slug_words"]] = float(len([w for w in re.split(r"[-_+]", stem) if w]))
    v[at["url.last_segment_chars"]] = _log(len(last))
    v[at["url.trailing_slash"]] = float(path.endswith("/") and bool(segments))
    words = set(_WORD.findall(path + " " + parts.query.lower()))
    for group, vocab in _URL_WORDS.items():
        v[at[f"url.word.{group}"]] = float(len(words & vocab))
    segment_set = set(segments)
    for group, vocab in _URL_SEGMENTS.items():
        v[at[f"url.segment.{group}"]] = float(bool(segment_set & vocab))
    labels = (parts.hostname or "").split(".")
    host_words = set(labels[:-1]) | {w for label in labels[:-1] for w in label.split("-")}
    for group, vocab in _HOST_LABELS.items():
        v[at[f"url.host.{group}"]] = float(bool(host_words & vocab))
    v[at["url.host_labels"]] = float(len(labels))


def _schema_types(text: str, counts: Counter[str]) -> None:
    for match in _JSON_TYPE.finditer(text):
        for name in _QUOTED.findall(match[1]):
            group = _SCHEMA_INDEX.get(name.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower())
            if group is not None:
                counts[group] += 1


def page_features(tree: etree._Element, url: str | None) -> np.ndarray:
    """The feature vector of a page (``FEATURE_NAMES``, float32). ``tree``: the root element as
    ``extract.parse.parse_html`` returns it (XPaths here search its whole document); it is read, never changed."""
    at = _INDEX  # a local alias: this runs per page
    v = [0.0] * len(FEATURE_NAMES)
    _url_features(url, v)

    # One pass over all elements for what every element has: its tag and its text. Appending to lists and
    # counting them afterwards in C is cheaper than updating counters per element.
    tags: list[str] = []
    texts: list[str] = []
    for el in tree.iter(etree.Element):  # elements only: no comments, PIs or entities
        tag = el.tag
        tags.append(tag)
        text = el.text
        if text and tag not in _NO_TEXT:
            text = text.strip()
            if text:
                texts.append(text)
        text = el.tail  # text of the parent after this element
        if text:
            text = text.strip()
            if text:
                texts.append(text)
    itemprop_xpath, itemtype_xpath = _xpaths()[:2]

    # The few telling elements, found by libxml2 (lxml makes Python objects for these only)
    json_ld: list[str] = []
    signature: list[str] = []
    inputs: Counter[str] = Counter()
    og_type = title = ""
    headings = heading_links = h1_chars = 0
    for el in tree.iter(*_SPECIAL_TAGS):
        tag = el.tag
        if tag == "h2" or tag == "h3" or tag == "h4":
            headings += 1
            if next(el.iter("a"), None) is not None:
                heading_links += 1
        elif tag == "meta":
            key = (el.get("property") or el.get("name") or "").lower()
            if key:
                content = el.get("content") or ""
                if key == "og:type":
                    og_type = content.strip().lower()
                elif key == "generator":
                    v[at["meta.generator"]] = 1.0
                    signature.append(content)
                elif key in ("product:price:amount", "og:price:amount", "product:price", "product:availability",
                             "og:availability", "product:retailer_item_id"):
                    v[at["meta.product_price"]] = 1.0
                elif key in ("article:published_time", "article:modified_time", "datepublished",
                             "parsely-pub-date", "publish-date", "pubdate"):
                    v[at["meta.article_published"]] = 1.0
                elif key in ("article:section", "article:tag", "parsely-section", "news_keywords"):
                    v[at["meta.article_section"]] = 1.0
                elif key in ("author", "article:author", "parsely-author", "sailthru.author", "citation_author"):
                    v[at["meta.author"]] = 1.0
                elif key.startswith(("twitter:label", "twitter:data")):
                    if "read" in content.lower() or "written" in content.lower():
                        v[at["meta.reading_time"]] = 1.0
                elif key == "twitter:card":
                    v[at["meta.twitter_large_image"]] = float("large" in content)
                elif key in ("description", "og:description"):
                    v[at["meta.description_chars"]] = _log(len(content))
                elif key.startswith(("discourse", "xf:", "vb_", "phpbb", "docsearch", "docusaurus", "shopify")):
                    signature.append(key)
        elif tag == "script":
            src = el.get("src")
            if src:
                signature.append(src)
            elif (el.get("type") or "").strip().lower() == "application/ld+json" and el.text:
                json_ld.append(el.text)
        elif tag == "link":
            rel = (el.get("rel") or "").lower()
            if rel == "next":
                v[at["meta.rel_next"]] = 1.0
            elif rel == "prev":
                v[at["meta.rel_prev"]] = 1.0
            elif rel == "alternate" and "rss" in (el.get("type") or ""):
                v[at["meta.rss"]] = 1.0
            elif rel == "amphtml":
                v[at["meta.amp"]] = 1.0
            if "stylesheet" in rel or "preload" in rel or "icon" in rel or "manifest" in rel:
                signature.append(el.get("href") or "")
        elif tag == "input":
            inputs[(el.get("type") or "text").lower()] += 1
        elif tag == "title":
            title = title or (el.text or "")
        elif tag == "html" or tag == "body":
            for key, value in el.items():
                signature.append(f"{key}={value}")
            if tag == "body":
                _body_features(f"{el.get('class') or ''} {el.get('id') or ''}".lower(), v)
        elif tag == "h1":
            h1_chars += len("".join(el.itertext()).strip())

    # Each link's text, serialised by libxml2. Not the XPath //a//text(): libxml2 merges its node sets with a
    # quadratic duplicate check, 10 ms on a WCXB page with 5,266 text nodes in 830 links (0.4 ms this way).
    link_texts = [len(etree.tostring(a, method="text", encoding="unicode", with_tail=False).strip())
                  for a in tree.iter("a")]
    link_chars = sum(link_texts)
    # link texts of a headline's length (30+ characters): a list of stories, threads or jobs
    headline_links = sum(1 for n in link_texts if n >= 30)

    # schema.org types: JSON-LD and microdata
    schema: Counter[str] = Counter()
    for text in json_ld:
        _schema_types(text, schema)
    for value in itemtype_xpath(tree):
        for name in value.split():
            group = _SCHEMA_INDEX.get(name.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower())
            if group is not None:
                schema[group] += 1
    for group in _SCHEMA_TYPES:
        v[at[f"schema.{group}"]] = _log(schema[group])
    v[at["schema.json_ld_scripts"]] = float(len(json_ld))
    v[at["schema.types_total"]] = _log(sum(schema.values()))
    props: Counter[str] = Counter()
    for value in itemprop_xpath(tree):
        for name in value.split():
            group = _ITEMPROP_INDEX.get(name.lower())
            if group is not None:
                props[group] += 1
    for group in _ITEMPROPS:
        v[at[f"itemprop.{group}"]] = _log(props[group])

    # meta
    if og_type:
        kind = og_type.split(".", 1)[0].split(":", 1)[0]
        v[at[f"meta.og_type.{kind if kind in _OG_TYPES else 'other'}"]] = 1.0

    # platforms
    sig = " ".join(signature).lower()
    for needle, i in _PLATFORM_NEEDLES:
        if not v[i] and needle in sig:
            v[i] = 1.0

    # elements
    tags_count = Counter(tags)
    total = len(tags) or 1
    for t in _TAGS:
        v[at[f"tag.{t}"]] = _log(tags_count.get(t, 0))
    v[at["tag.elements"]] = _log(total)
    v[at["tag.distinct"]] = _log(len(tags_count))
    for t in _INPUT_TYPES:
        v[at[f"input.{t}"]] = _log(inputs[t])
    _link_features(tree, url, tags_count.get("a", 0), v)
    v[at["link.headings"]] = _log(heading_links)
    v[at["link.heading_share"]] = heading_links / headings if headings else 0.0

    # text
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    text_chars = int(lengths.sum())
    short = [t for t, n in zip(texts, lengths.tolist(), strict=True) if n <= _SHORT]
    joined = "\n".join(short)
    v[at["text.chars"]] = _log(text_chars)
    v[at["text.nodes"]] = _log(len(texts))
    long_nodes = lengths >= 80
    v[at["text.nodes_80"]] = _log(int(long_nodes.sum()))
    v[at["text.prose_share"]] = int(lengths[long_nodes].sum()) / text_chars if text_chars else 0.0
    v[at["link.headline_texts"]] = _log(headline_links)
    v[at["link.headline_share"]] = headline_links / len(link_texts) if link_texts else 0.0
    v[at["text.nodes_200"]] = _log(int((lengths >= 200).sum()))
    v[at["text.longest"]] = _log(int(lengths.max()) if len(texts) else 0)
    v[at["text.link_chars"]] = _log(link_chars)
    v[at["text.link_density"]] = min(1.0, link_chars / text_chars) if text_chars else 0.0
    v[at["text.short_nodes"]] = _log(len(short))
    v[at["text.chars_per_element"]] = text_chars / total
    v[at["text.prices"]] = _log(sum(joined.count(sign) for sign in _CURRENCY))
    v[at["text.dates"]] = _log(len(_YEAR.findall(joined)))
    lower = joined.lower()
    v[at["text.ago"]] = _log(sum(lower.count(w) for w in _AGO))
    v[at["text.counters"]] = _log(sum(lower.count(w) for w in _COUNTERS))
    v[at["text.read_time"]] = float(any(w in lower for w in _READ_TIME))
    v[at["text.h1_chars"]] = _log(h1_chars)
    lines: Counter[str] = Counter()
    for line, count in Counter(lower.split("\n")).items():  # distinct lines: buttons and labels repeat
        lines[line.strip(_EDGE_PUNCT)] += count
    for group, phrases in zip(_PHRASE_GROUPS, _PHRASE_LISTS, strict=True):
        v[at[f"phrase.{group}"]] = _log(sum(lines.get(phrase, 0) for phrase in phrases))
    # marks that are all punctuation: Sphinx's and MkDocs' heading permalinks
    v[at["phrase.permalink"]] = _log(lower.count("¶") + f"\n{joined}\n".count("\n#\n"))

    # title
    title_words = set(_WORD.findall(title.lower()))
    for group, vocab in _TITLE_WORDS.items():
        v[at[f"title.{group}"]] = float(len(title_words & vocab))
    v[at["title.words"]] = _log(len(title_words))
    v[at["title.separators"]] = float(sum(title.count(s) for s in (" | ", " - ", " – ", " — ", " : ", " · ")))
    return np.asarray(v, dtype=np.float32)


def _link_features(tree: etree._Element, url: str | None, n_links: int, v: list[float]) -> None:
    """Where the links go: counted with ``str.count`` over all ``href`` values joined, one C scan per pattern.

    Each value starts on a new line, so ``"\\n#"`` counts the in-page anchors; the path patterns count
    occurrences, which for one link is at most one in practice.
    """
    at = _INDEX
    href_xpath, rel_xpath = _xpaths()[2:4]
    hrefs = "\n" + "\n".join(href_xpath(tree)).lower()
    rels = " ".join(rel_xpath(tree)).lower()
    v[at["link.anchor"]] = _log(hrefs.count("\n#"))
    v[at["link.tel"]] = _log(hrefs.count("\ntel:"))
    v[at["link.mailto"]] = _log(hrefs.count("\nmailto:"))
    v[at["link.ugc"]] = _log(rels.count("ugc"))
    v[at["link.nofollow"]] = _log(rels.count("nofollow"))
    v[at["link.user"]] = _log(sum(hrefs.count(p) for p in ("/user", "/member", "/u/", "/profile")))
    v[at["link.tag"]] = _log(sum(hrefs.count(p) for p in ("/tag/", "/tags/", "/category/")))
    v[at["link.page_param"]] = _log(hrefs.count("page=") + hrefs.count("/page/"))
    host = own_path = ""
    if url:
        try:
            parts = urlsplit(url)
            host, own_path = (parts.hostname or "").lower(), parts.path.lower()
        except ValueError:
            pass
    if n_links and host:
        absolute = hrefs.count("\nhttp") + hrefs.count("\n//")
        own = sum(hrefs.count(f"\n{scheme}{host}") for scheme in ("https://", "http://", "//"))
        v[at["link.external_share"]] = min(1.0, max(0, absolute - own) / n_links)
    if len(own_path) > 1:
        v[at["link.same_path"]] = _log(hrefs.count(own_path))


def _body_features(attrs: str, v: list[float]) -> None:
    for group, needles in _BODY_WORDS.items():
        v[_INDEX[f"body.{group}"]] = float(any(needle in attrs for needle in needles))


# ----------------------------------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class PageTypeModel:
    """Standardised features, then a softmax over ``(x - mean) / scale @ coef.T + intercept``.

    ``coef`` is (7, n_features), rows in ``PAGE_TYPES`` order; a type absent from the training labels gets an
    intercept of -1e9 (probability 0).
    """

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    params: dict[str, Any] = field(default_factory=dict)
    training: dict[str, Any] = field(default_factory=dict)
    # folded at construction: one matrix-vector product per page
    _weights: np.ndarray = field(init=False, repr=False, compare=False)
    _bias: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(FEATURE_NAMES)
        if self.mean.shape != (n,) or self.scale.shape != (n,) or self.coef.shape != (len(PAGE_TYPES), n) \
                or self.intercept.shape != (len(PAGE_TYPES),):
            raise ValueError(f"model arrays do not fit {n} features and {len(PAGE_TYPES)} types")
        weights = self.coef / self.scale
        object.__setattr__(self, "_weights", weights.T.copy())
        object.__setattr__(self, "_bias", self.intercept - weights @ self.mean)


@dataclass(frozen=True)
class PageTypeResult:
    page_type: str
    confidence: float  # the probability of page_type
    probabilities: dict[str, float]  # every type in PAGE_TYPES


def _type_indexes(labels: list[str]) -> np.ndarray:
    mapped = [LABEL_ALIASES.get(label, label) for label in labels]
    unknown = sorted(set(mapped) - set(PAGE_TYPES))
    if unknown:
        raise ValueError(f"unknown page type labels {unknown}; expected {PAGE_TYPES}")
    return np.array([PAGE_TYPES.index(label) for label in mapped])


def train(features: np.ndarray, labels: list[str], seed: int = 0) -> PageTypeModel:
    """Fit the page-type model on rows of ``page_features`` and their labels (WCXB's names; ``category`` allowed).

    Deterministic (lbfgs; ``seed`` goes to sklearn for completeness). Imports scikit-learn: training only.
    """
    from sklearn.linear_model import LogisticRegression

    x = np.asarray(features, dtype=np.float32).astype(np.float64)
    y = _type_indexes(labels)
    if x.ndim != 2 or x.shape[1] != len(FEATURE_NAMES) or len(x) != len(y):
        raise ValueError(f"features {x.shape} for {len(y)} labels; expected rows of {len(FEATURE_NAMES)}")
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0  # a feature constant in training contributes nothing
    clf = LogisticRegression(random_state=seed, **LINEAR_PARAMS)
    clf.fit((x - mean) / scale, y)
    present = clf.classes_.tolist()
    coef = np.zeros((len(PAGE_TYPES), x.shape[1]))
    intercept = np.full(len(PAGE_TYPES), -1e9)
    if len(present) == 2:  # sklearn's binary form: one row for the second class
        coef[present[1]], intercept[present[1]] = clf.coef_[0], clf.intercept_[0]
        intercept[present[0]] = 0.0
    else:
        coef[present], intercept[present] = clf.coef_, clf.intercept_
    return PageTypeModel(mean, scale, coef, intercept, dict(LINEAR_PARAMS))


def predict_proba(model: PageTypeModel, features: np.ndarray) -> np.ndarray:
    """Probabilities (n_pages, 7), columns in ``PAGE_TYPES`` order, for rows (or one row) of ``page_features``."""
    x = np.asarray(features, dtype=np.float32).astype(np.float64)
    raw = np.atleast_2d(x) @ model._weights + model._bias
    raw -= raw.max(axis=1, keepdims=True)
    exp = np.exp(raw)
    return exp / exp.sum(axis=1, keepdims=True)


# ------------------------------------------------------------------------------------------------ the model file
def model_to_json(model: PageTypeModel) -> dict[str, Any]:
    """The model file's document (floats as Python's repr: they read back bit for bit)."""
    import sklearn

    return {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "model": "multinomial logistic regression on standardised features (sklearn LogisticRegression, lbfgs)",
        "sklearn_version": sklearn.__version__,
        "classes": list(PAGE_TYPES),
        "feature_names": list(FEATURE_NAMES),
        "params": model.params,
        "training": model.training,
        "mean": model.mean.tolist(),
        "scale": model.scale.tolist(),
        "coef": model.coef.tolist(),
        "intercept": model.intercept.tolist(),
    }


def save_model(model: PageTypeModel, path: Path = MODEL_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(model_to_json(model), indent=1, allow_nan=False) + "\n", encoding="utf-8")


class ModelFileError(RuntimeError):
    """The page-type model file is missing, unreadable, or does not match this code's features."""


def load_model(path: Path = MODEL_PATH) -> PageTypeModel:
    """Read a model file written by ``save_model``; ``ModelFileError`` names the path and the rebuild command."""

    def fail(why: str) -> ModelFileError:
        return ModelFileError(f"page-type model {path}: {why}; rebuild it with `{REBUILD_COMMAND}` "
                              "(reads ../shared/data/wcxb/dev)")

    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise fail("file not found") from None
    except (OSError, ValueError) as exc:
        raise fail(f"unreadable ({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise fail(f"not a {MODEL_FORMAT} file")
    if doc.get("format_version") != MODEL_FORMAT_VERSION:
        raise fail(f"format version {doc.get('format_version')!r}, this code reads {MODEL_FORMAT_VERSION}")
    if doc.get("classes") != list(PAGE_TYPES):
        raise fail(f"its classes {doc.get('classes')} are not PAGE_TYPES")
    if doc.get("feature_names") != list(FEATURE_NAMES):
        raise fail("its feature names differ from this code's FEATURE_NAMES (the features changed since)")
    try:
        return PageTypeModel(*(np.asarray(doc[key], dtype=np.float64) for key in ("mean", "scale", "coef",
                                                                                  "intercept")),
                             params=dict(doc.get("params") or {}), training=dict(doc.get("training") or {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise fail(f"malformed ({type(exc).__name__}: {exc})") from None


@functools.cache  # thread-safe; two threads' first calls may both read the file, harmlessly
def shipped_model(path: Path = MODEL_PATH) -> PageTypeModel:
    """The model at ``path``, read once per process (a pipeline worker loads it on its first page)."""
    return load_model(path)


def classify(tree: etree._Element, url: str | None, model: PageTypeModel | None = None) -> PageTypeResult:
    """The page type of a parsed page: ``tree`` is the root as ``extract.parse.parse_html`` returns it (``<head>``
    included, before anything is stripped); it is read, never changed. ``model``: the shipped one by default."""
    probs = predict_proba(model or shipped_model(), page_features(tree, url))[0]
    best = int(np.argmax(probs))
    return PageTypeResult(PAGE_TYPES[best], float(probs[best]),
                          {name: float(p) for name, p in zip(PAGE_TYPES, probs, strict=True)})
