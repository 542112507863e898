"""extract/page_type.py: the page-type classifier on small pages written here, its model file, and (slow, with
../shared/data/wcxb) its accuracy on WCXB's dev pages (WCXB v1.0, Foley 2026, CC-BY-4.0)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from extract.page_type import (
    FEATURE_NAMES,
    MODEL_PATH,
    PAGE_TYPES,
    REBUILD_COMMAND,
    ModelFileError,
    PageTypeResult,
    classify,
    load_model,
    model_to_json,
    page_features,
    predict_proba,
    save_model,
    shipped_model,
    train,
)
from extract.parse import parse_html
from tests.script_loader import load_script

REPO = Path(__file__).resolve().parents[2]
WCXB_DEV = REPO.parent / "shared" / "data" / "wcxb" / "dev"

FORUM = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Audio crackles after upgrading to 3.2 - Support - Audacity Forum</title>
<meta name="generator" content="Discourse 3.2.0 - https://github.com/discourse/discourse version 3.2.0">
<meta property="og:type" content="website"><meta name="discourse_theme_id" content="2">
<link rel="stylesheet" href="/stylesheets/discourse-common.css">
<script type="application/ld+json">{"@context":"http://schema.org","@type":"DiscussionForumPosting",
"headline":"Audio crackles after upgrading to 3.2","author":{"@type":"Person","name":"mike_r"},
"datePublished":"2024-03-02T10:11:00Z","commentCount":4}</script>
</head><body class="crawler">
<header><a href="/">Audacity Forum</a> <a href="/c/support/5">Support</a></header>
<div id="main-outlet">
<h1><a href="/t/audio-crackles-after-upgrading-to-3-2/1234">Audio crackles after upgrading to 3.2</a></h1>
""" + "".join(f"""<div class="topic-post" itemprop="comment" itemscope itemtype="http://schema.org/Comment">
<div class="topic-meta-data"><span class="creator"><a href="/u/user{i}">user{i}</a></span>
<span class="post-time">March {i + 2}, 2024, 10:1{i}am</span> <span>#{i + 1}</span></div>
<div class="post cooked" itemprop="text"><p>I have the same problem since the update. Recording from the USB
interface at 48 kHz gives clicks every few seconds, and switching the host to WASAPI did not help at all.
Did anyone find a setting that fixes it? {i}</p></div>
<div class="post-actions"><span>{i + 3} Likes</span> <button>Reply</button> <button>Quote</button></div></div>
""" for i in range(5)) + """<div class="topic-footer"><span>5 replies</span> <span>312 views</span></div></div>
<footer><a href="/tos">Terms of Service</a> Powered by Discourse</footer></body></html>"""

PRODUCT = """<!DOCTYPE html><html lang="en"><head><title>Trailhead 40L Hiking Backpack | Northpeak Outfitters</title>
<meta property="og:type" content="product"><meta property="product:price:amount" content="129.00">
<meta property="product:price:currency" content="USD">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",
"name":"Trailhead 40L Hiking Backpack","sku":"NP-40-GRN","brand":{"@type":"Brand","name":"Northpeak"},
"offers":{"@type":"Offer","price":"129.00",
"priceCurrency":"USD","availability":"https://schema.org/InStock"},
"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.7","reviewCount":"212"}}</script>
<script src="https://cdn.shopify.com/s/files/1/theme.js"></script></head>
<body class="template-product">
<nav><a href="/">Home</a> <a href="/collections/backpacks">Backpacks</a></nav>
<main><div class="product-single"><div class="product-gallery"><img src="/img/1.jpg" alt="front">
<img src="/img/2.jpg" alt="side"></div>
<div class="product__info"><h1 class="product__title">Trailhead 40L Hiking Backpack</h1>
<div class="price"><span class="price-item">$129.00</span></div><span>In stock</span>
<form action="/cart/add" method="post"><label for="color">Color</label><select id="color" name="color">
<option>Forest green</option><option>Slate</option><option>Black</option></select>
<label for="qty">Quantity</label><input type="number" id="qty" name="quantity" value="1">
<button type="submit" name="add">Add to cart</button></form>
<p>A light 40-litre pack for long day hikes and overnight trips, with a ventilated back panel, a rain cover
in the lid pocket and hip-belt pockets that fit a large phone.</p>
<h2>Specifications</h2><ul><li>Volume: 40 L</li><li>Weight: 1.1 kg</li><li>Fabric: recycled nylon</li></ul>
<h2>Reviews</h2><p>4.7 out of 5 (212 reviews)</p><button>Write a review</button></div></div></main>
<footer><a href="/pages/shipping">Free shipping over $75</a></footer></body></html>"""

DOCS = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="generator" content="Docutils 0.20.1: https://docutils.sourceforge.io/">
<title>json — JSON encoder and decoder — Python 3.12 documentation</title>
<link rel="stylesheet" href="_static/pygments.css"><link rel="stylesheet" href="_static/sphinxdoc.css">
<script src="_static/documentation_options.js"></script><script src="_static/searchtools.js"></script>
<link rel="index" title="Index" href="genindex.html"><link rel="next" title="html" href="html.html">
</head><body><div class="related"><ul><li><a href="genindex.html">index</a></li><li>
<a href="py-modindex.html">modules</a> |</li>
<li><a href="html.html">next</a> |</li><li><a href="netrc.html">previous</a> |</li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="module-json"><h1>json — JSON encoder and decoder<a class="headerlink" href="#module-json">¶</a></h1>
<p>
<strong>Source code:</strong> <a
href="https://github.com/python/cpython/tree/3.12/Lib/json">Lib/json/__init__.py</a></p>
<p>JSON (JavaScript Object Notation) is a lightweight data interchange format inspired by JavaScript object literal
syntax. This module exposes an API familiar to users of the standard library marshal and pickle modules.</p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>
<span class="kn">import</span> json
json.dumps(['foo', {'bar': ('baz', None, 1.0, 2)}])</pre></div></div>
<section id="basic-usage"><h2>Basic Usage<a class="headerlink" href="#basic-usage">¶</a></h2>
<dl class="py function"><dt class="sig sig-object py" id="json.dump"><span class="sig-prename">json.</span>
<span class="sig-name">dump</span>(<em class="sig-param">obj</em>, <em class="sig-param">fp</em>)<a
class="headerlink" href="#json.dump">¶</a></dt>
<dd>
<p>Serialize <em>obj</em> as a JSON formatted stream to <em>fp</em> (a <code class="docutils
literal">.write()</code>-supporting
file-like object) using this conversion table.</p>
<div class="admonition note"><p class="admonition-title">Note</p><p>Unlike pickle and marshal, JSON is not a framed
protocol, so trying to serialize multiple objects with repeated calls to dump() using the same fp will result in
an invalid JSON file.</p></div></dd></dl>
<dl class="py function"><dt class="sig sig-object py" id="json.loads">
<span class="sig-name">loads</span>(<em class="sig-param">s</em>)
<a class="headerlink" href="#json.loads">¶</a></dt><dd><p>Deserialize <em>s</em> (a str, bytes or bytearray instance
containing a JSON document) to a Python object using this conversion table.</p></dd></dl></section></section>
</div></div></div><div class="sphinxsidebar" role="navigation"><h3>Table of Contents</h3><ul>
<li><a class="reference internal" href="#">json — JSON encoder and decoder</a><ul>
<li><a class="reference internal" href="#basic-usage">Basic Usage</a></li></ul></li></ul>
<h4>Previous topic</h4><p><a href="netrc.html">netrc — netrc file processing</a></p>
<h3>This Page</h3><ul><li><a href="_sources/library/json.rst.txt">Show Source</a></li></ul></div></div>
<div class="footer">Created using <a href="https://www.sphinx-doc.org/">Sphinx</a> 7.2.6.</div></body></html>"""

ARTICLE = """<!DOCTYPE html><html lang="en"><head>
<title>City council approves new tram line to the harbour | The Coast Herald</title>
<meta property="og:type" content="article"><meta property="article:published_time" content="2024-05-14T08:00:00Z">
<meta property="article:section" content="Local"><meta name="author" content="Ana Ruiz">
<meta name="twitter:card" content="summary_large_image">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"City council approves new tram line to the harbour","datePublished":"2024-05-14T08:00:00Z",
"author":[{"@type":"Person","name":"Ana Ruiz"}],"publisher":{"@type":"NewsMediaOrganization",
"name":"The Coast Herald"}}</script>
</head><body class="single single-post">
<header><a href="/">The Coast Herald</a><nav><a href="/news/">News</a> <a href="/sport/">Sport</a></nav></header>
<main><article><h1>City council approves new tram line to the harbour</h1>
<div class="byline">By <a rel="author" href="/author/ana-ruiz">Ana Ruiz</a> <time datetime="2024-05-14">May 14,
2024</time> · 4 min read</div>
<p>The city council voted on Tuesday to build a four-kilometre tram line from the central station to the harbour,
ending a decade of debate about how to connect the old port district to the rest of the network.</p>
<p>Construction is planned to start next spring and to take about three years. The council expects the line to carry
around 18,000 passengers a day once the new housing on the former docks is finished.</p>
<p>Opponents argued that electric buses would have served the district for a fraction of the cost, and several
shop owners on Harbour Street said they feared losing trade during the works.</p>
<h2>What happens next</h2>
<p>The transport authority will now tender the construction contract. A public consultation on the exact route of the
last kilometre, along the waterfront, opens in June and runs for six weeks.</p>
<p>“This is the most important transport decision the city has taken in a generation,” the mayor said after the
vote.</p>
</article><aside><h3>Related articles</h3><ul><li><a href="/news/2024/04/bus-fares">Bus fares to rise in July</a>
</li></ul></aside></main>
<div class="share"><a href="https://twitter.com/intent/tweet">Share</a></div>
<footer><a href="/about">About us</a> <a href="/contact">Contact</a></footer></body></html>"""

CATEGORY = """<!DOCTYPE html><html lang="en"><head><title>Hiking Backpacks | Northpeak Outfitters</title>
<meta property="og:type" content="website">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage",
"name":"Hiking Backpacks"}</script>
<script src="https://cdn.shopify.com/s/files/1/theme.js"></script></head>
<body class="template-collection"><nav><a href="/">Home</a> <a href="/collections/all">Shop all</a></nav>
<main><h1>Hiking Backpacks</h1><p>24 products</p>
<div class="facets"><span>Filter:</span><details><summary>Availability</summary><label>
<input type="checkbox"> In stock</label></details>
<details><summary>Price</summary><input type="number" name="min"><input type="number" name="max"></details>
<label for="sort">Sort by</label><select id="sort"><option>Featured</option><option>Best selling</option>
<option>Price, low to high</option></select></div>
<ul class="product-grid">""" + "".join(f"""<li class="grid__item"><div class="product-card">
<a href="/products/pack-{i}"><img src="/img/pack-{i}.jpg" alt="Pack {i}"></a>
<h3 class="card__heading"><a href="/products/pack-{i}">Trail Pack {20 + i}L</a></h3>
<div class="price"><span class="price-item">${79 + i}.00</span></div>
<button type="button">Quick view</button></div></li>""" for i in range(24)) + """</ul>
<nav class="pagination"><a href="?page=1">1</a> <a href="?page=2">2</a> <a href="?page=2">Next</a></nav></main>
<footer><a href="/pages/contact">Contact us</a></footer></body></html>"""

PAGES = {  # name: (html, url, expected type)
    "forum": (FORUM, "https://forum.audacityteam.org/t/audio-crackles-after-upgrading-to-3-2/1234", "forum"),
    "product": (PRODUCT, "https://northpeak.example/products/trailhead-40l-hiking-backpack", "product"),
    "docs": (DOCS, "https://docs.python.org/3/library/json.html", "documentation"),
    "article": (ARTICLE, "https://www.coastherald.example/news/2024/05/14/city-council-approves-tram", "article"),
    "category": (CATEGORY, "https://northpeak.example/collections/hiking-backpacks", "collection"),
}


def tree_of(html: str) -> etree._Element:
    tree, _ = parse_html(html)
    assert tree is not None
    return tree


@pytest.mark.parametrize("name", PAGES)
def test_pages_get_their_type(name: str) -> None:
    html, url, expected = PAGES[name]
    result = classify(tree_of(html), url)
    assert result.page_type == expected, result.probabilities
    assert result.confidence > 0.5


@pytest.mark.parametrize("name", PAGES)
def test_pages_get_their_type_without_a_url(name: str) -> None:
    # the markup alone decides these: JSON-LD, og:type, platform markers, buttons, permalinks, cards
    html, _, expected = PAGES[name]
    assert classify(tree_of(html), None).page_type == expected


def test_result_shape() -> None:
    html, url, _ = PAGES["article"]
    result = classify(tree_of(html), url)
    assert isinstance(result, PageTypeResult)
    assert list(result.probabilities) == list(PAGE_TYPES)
    assert sum(result.probabilities.values()) == pytest.approx(1.0)
    assert result.confidence == max(result.probabilities.values())
    with pytest.raises(AttributeError):
        result.page_type = "forum"  # frozen


def test_feature_vector() -> None:
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    for html, url, _ in PAGES.values():
        for u in (url, None, "not a url", "http://[::1"):  # a malformed URL is no URL, never an exception
            v = page_features(tree_of(html), u)
            assert v.shape == (len(FEATURE_NAMES),)
            assert v.dtype == np.float32
            assert np.isfinite(v).all()
    named = dict(zip(FEATURE_NAMES, page_features(tree_of(PRODUCT), PAGES["product"][1]), strict=True))
    assert named["schema.product"] > 0 and named["meta.og_type.product"] == 1 and named["text.prices"] > 0
    assert named["phrase.cart"] > 0 and named["platform.shop_system"] == 1 and named["url.word.product"] == 1
    named = dict(zip(FEATURE_NAMES, page_features(tree_of(DOCS), None), strict=True))
    assert named["platform.docs_generator"] == 1 and named["phrase.permalink"] > 0 and named["tag.pre"] > 0


def test_the_tree_is_not_changed() -> None:
    for html, url, _ in PAGES.values():
        tree = tree_of(html)
        before = etree.tostring(tree, encoding="unicode")
        classify(tree, url)
        page_features(tree, url)
        assert etree.tostring(tree, encoding="unicode") == before


def test_features_are_deterministic() -> None:
    html, url, _ = PAGES["forum"]
    assert np.array_equal(page_features(tree_of(html), url), page_features(tree_of(html), url))


def test_shipped_model_file() -> None:
    assert MODEL_PATH.stat().st_size < 1_000_000
    doc = json.loads(MODEL_PATH.read_text())
    assert doc["format"] == "winnow-page-type" and doc["format_version"] == 1
    assert doc["feature_names"] == list(FEATURE_NAMES) and doc["classes"] == list(PAGE_TYPES)
    assert doc["sklearn_version"] and doc["training"]["pages"] == 1497
    assert doc["training"]["cv"]["method"].startswith("GroupKFold(5)")
    assert shipped_model() is shipped_model()  # read once per process


def test_missing_or_broken_model_file_says_how_to_rebuild(tmp_path: Path) -> None:
    missing = tmp_path / "page_type.json"
    with pytest.raises(ModelFileError) as err:
        load_model(missing)
    assert str(missing) in str(err.value) and REBUILD_COMMAND in str(err.value) and "not found" in str(err.value)
    with pytest.raises(ModelFileError, match="rebuild"):
        shipped_model(missing)  # what classify() loads: the same error, not a cached None
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "winnow-page-type", "format_ver')
    with pytest.raises(ModelFileError, match="unreadable") as err:
        load_model(broken)
    assert str(broken) in str(err.value) and REBUILD_COMMAND in str(err.value)
    stale = tmp_path / "stale.json"
    doc = model_to_json(shipped_model())
    doc["feature_names"] = doc["feature_names"][:-1]
    stale.write_text(json.dumps(doc))
    with pytest.raises(ModelFileError, match="feature names differ"):
        load_model(stale)
    short = tmp_path / "short.json"
    doc = model_to_json(shipped_model())
    doc["coef"] = doc["coef"][:3]
    short.write_text(json.dumps(doc))
    with pytest.raises(ModelFileError, match="malformed"):
        load_model(short)


def test_train_predict_save_load(tmp_path: Path) -> None:
    rows, labels = [], []
    for html, url, expected in PAGES.values():
        rows.append(page_features(tree_of(html), url))
        labels.append("category" if expected == "collection" else expected)  # WCXB's older name is accepted
    x = np.vstack(rows)
    model = train(x, labels, seed=0)
    probs = predict_proba(model, x)
    assert probs.shape == (len(PAGES), len(PAGE_TYPES))
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert [PAGE_TYPES[i] for i in probs.argmax(axis=1)] == [expected for _, _, expected in PAGES.values()]
    assert (probs[:, [PAGE_TYPES.index("listing"), PAGE_TYPES.index("service")]] == 0).all()  # never seen
    assert np.allclose(predict_proba(model, x[0]), probs[:1], rtol=0, atol=1e-12)  # one row works too
    path = tmp_path / "model.json"
    save_model(model, path)
    assert np.array_equal(predict_proba(load_model(path), x), probs)  # floats survive JSON bit for bit
    with pytest.raises(ValueError, match="unknown page type"):
        train(x, ["article", "forum", "product", "blog", "service"])




def test_training_script_on_a_small_wcxb_shaped_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "wcxb" / "dev"
    (data / "html").mkdir(parents=True)
    (data / "ground-truth").mkdir()
    page_id = 0
    for site in ("one", "two"):  # two sites per type: GroupKFold(5) needs five sites or more
        for name, (html, url, expected) in PAGES.items():
            page_id += 1
            if site == "two":  # another site: another registered domain
                url = "https://" + name + "-two.example.org/" + url.split("/", 3)[3]
            with gzip.open(data / "html" / f"{page_id:04d}.html.gz", "wt", encoding="utf-8") as f:
                f.write(html)
            label = "category" if expected == "collection" else expected
            (data / "ground-truth" / f"{page_id:04d}.json").write_text(json.dumps(
                {"url": url, "file_id": f"{page_id:04d}", "_internal": {"page_type": {"primary": label}}}))
    (data / "ground-truth" / "0099.json").write_text(json.dumps({"url": "https://x.example/"}))  # no label: skipped
    model_path, oof_path = tmp_path / "model.json", tmp_path / "oof.json"
    assert load_script("train_page_type").main([str(data), "--model", str(model_path), "--oof", str(oof_path)]) == 0
    out = capsys.readouterr().out
    assert "10 labelled pages" in out and "grouped 5-fold CV accuracy" in out and "confusion" in out
    oof = json.loads(oof_path.read_text())
    assert sorted(oof) == [f"{i:04d}" for i in range(1, 11)]
    assert all(list(p) == list(PAGE_TYPES) and sum(p.values()) == pytest.approx(1.0, abs=1e-4) for p in oof.values())
    model = load_model(model_path)
    assert model.training["pages"] == 10 and model.training["pages_per_type"]["collection"] == 2
    html, url, expected = PAGES["docs"]
    assert classify(tree_of(html), url, model=model).page_type == expected


# Floors set from the measurement, with room for BLAS and platform differences: the shipped model scored 0.950 on
# the 200-page sample (in-sample: it was trained on all dev pages), and the model retrained in grouped 5-fold CV
# on every second dev page (749) 0.841 (on all 1,497: 0.870, extract/page_type.py's docstring).
IN_SAMPLE_FLOOR = 0.92
CV_FLOOR = 0.81


@pytest.mark.slow
def test_accuracy_on_wcxb_dev() -> None:
    if not WCXB_DEV.is_dir():
        pytest.skip("needs ../shared/data/wcxb (evaluation data)")
    script = load_script("train_page_type")
    pages = script.load_pages(WCXB_DEV)
    assert len(pages) == 1497
    subset = pages[::2]  # 749 pages, about 20 s of parsing and features on 2 cores
    x = script.compute_features(WCXB_DEV, subset)
    labels = [p["label"] for p in subset]
    sample = list(range(0, len(subset), 3))[:200]  # a fixed sample of 200 pages
    truth = np.array([PAGE_TYPES.index(labels[i]) for i in sample])
    in_sample = float((predict_proba(shipped_model(), x[sample]).argmax(axis=1) == truth).mean())
    oof = script.cross_validate(x, labels, script.folds(subset))
    cv = float((oof.argmax(axis=1) == np.array([PAGE_TYPES.index(label) for label in labels])).mean())
    print(f"shipped model on 200 dev pages (in-sample) {in_sample:.3f}; grouped 5-fold CV on {len(subset)} {cv:.3f}")
    assert in_sample >= IN_SAMPLE_FLOOR
    assert cv >= CV_FLOOR
