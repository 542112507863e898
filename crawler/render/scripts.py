"""The JavaScript that crawler/render/page.py runs in rendered pages (kept apart for length and readability).

- ``INIT_SCRIPT``: added to every browser context, so it runs in each document before the page's own scripts.
- ``PROBE_JS`` / ``WORDS_JS``: the quiet test's readings.
- ``SCROLL_JS``, ``OVERLAY_JS``, ``CLICK_JS`` (+ ``MARK_DONE_JS`` / ``FORGET_LAST_JS``): one interaction step each.
"""

from __future__ import annotations

TIMER_HORIZON_MS = 5000  # timers further out than this are not counted as pending (the default settle_max)

# Runs in every document before its own scripts (context-wide): a mutation clock and a count of pending one-shot
# timers (setTimeout up to TIMER_HORIZON_MS) for the quiet test, and window.open disabled (popups are closed
# anyway; this keeps them from starting requests at all).
INIT_SCRIPT = """
(() => {
  if (window.__winnowMut !== undefined) return;
  window.__winnowMut = performance.now(); window.__winnowMutCount = 0;
  new MutationObserver(() => { window.__winnowMut = performance.now(); window.__winnowMutCount++; })
    .observe(document, {subtree: true, childList: true, characterData: true});
  const pending = new Set(), setT = window.setTimeout, clearT = window.clearTimeout;
  window.setTimeout = function (fn, delay, ...args) {
    if (typeof fn !== 'function' || Number(delay) > TIMER_HORIZON_MS) return setT.call(this, fn, delay, ...args);
    const id = setT.call(this, function () { pending.delete(id); return fn.apply(this, arguments); }, delay, ...args);
    pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { pending.delete(id); return clearT.call(this, id); };
  window.__winnowTimers = () => pending.size;
  try { window.open = () => null; } catch (e) {}
})();
""".replace("TIMER_HORIZON_MS", str(TIMER_HORIZON_MS))
# [ms since the last DOM mutation, mutation count, pending one-shot timers, document.readyState]
PROBE_JS = """() => [performance.now() - (window.__winnowMut || 0), window.__winnowMutCount || 0,
  window.__winnowTimers ? window.__winnowTimers() : 1, document.readyState]"""
WORDS_JS = "() => ((document.body && document.body.innerText) || '').split(/\\s+/).filter(Boolean).length"
# Two animation frames (at most FRAMES_MAX_MS): IntersectionObserver and scroll handlers run in the frame after a
# scroll or click, so what they start (a fetch) has started when the step returns, however loaded the machine is.
TWO_FRAMES = """new Promise(done => {
    const timer = setTimeout(done, FRAMES_MAX_MS);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(timer); done(); }));
  })"""
FRAMES_MAX_MS = 500
SCROLL_JS = """async () => {
  const se = document.scrollingElement || document.documentElement;
  const before = se.scrollTop;
  window.scrollBy(0, Math.max(200, Math.floor(window.innerHeight * 0.9)));
  await TWO_FRAMES;
  return se.scrollTop > before;
}""".replace("TWO_FRAMES", TWO_FRAMES).replace("FRAMES_MAX_MS", str(FRAMES_MAX_MS))
OVERLAY_JS = r"""() => {
  const vw = window.innerWidth, vh = window.innerHeight, out = {closed: 0, removed: 0};
  const bodyText = ((document.body && document.body.innerText) || '').length || 1;
  const hint = new RegExp('(cookie|consent|gdpr|modal|overlay|popup|pop-up|newsletter|subscribe|paywall|' +
                          'interstitial|backdrop|lightbox)', 'i');
  const closeLabel = /^(close|dismiss|no,? thanks|not now|skip|later|continue reading|×|✕|✖|x)$/i;
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    // Only fixed (or hidden) elements lack an offsetParent: computed styles are read for those alone.
    if (!el.isConnected || el.offsetParent !== null || !(el instanceof HTMLElement)) continue;
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' || cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') continue;
    const r = el.getBoundingClientRect();
    const area = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)) *
                 Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    const named = hint.test((el.id || '') + ' ' + (el.getAttribute('class') || '')) ||
      el.getAttribute('role') === 'dialog' || el.getAttribute('aria-modal') === 'true';
    if (area < 0.3 * vw * vh && !(named && area > 0)) continue;
    if ((el.innerText || '').length > 0.5 * bodyText) continue;  // the page's own content, not a layer over it
    const button = Array.from(el.querySelectorAll('button, [role=button], a[href="#"], a:not([href])')).find(
      b => closeLabel.test((b.getAttribute('aria-label') || b.textContent || '').trim()));
    if (button) { button.click(); out.closed++; } else { el.remove(); out.removed++; }
  }
  for (const node of [document.documentElement, document.body]) {
    if (node && getComputedStyle(node).overflowY === 'hidden') node.style.setProperty('overflow', 'auto', 'important');
  }
  return out;
}"""
CLICK_JS = r"""async () => {
  const label = new RegExp('^((load|show|see|view|read|display)\\s+(\\d+\\s+)?' +
    '(more|all|older|earlier|replies|comments)\\b|more\\s+(results|posts|articles|comments|items|stories|replies)\\b' +
    '|expand\\b|show\\s+(replies|comments)\\b)', 'i');
  const unsafe = new RegExp('(buy|cart|checkout|order|subscribe|sign ?(in|up)|log ?(in|out)|register|delete|' +
                            'remove|unsubscribe|download|print|share)', 'i');
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
    getComputedStyle(el).visibility !== 'hidden'; };
  const navigates = el => {
    if (el.tagName === 'A') {
      const h = (el.getAttribute('href') || '').trim();
      return !!h && !h.startsWith('#') && !/^javascript:/i.test(h);
    }
    const form = el.closest('form'); return !!form && (el.getAttribute('type') || 'submit').toLowerCase() === 'submit';
  };
  const candidates = document.querySelectorAll(
    'button, a, [role=button], summary, [aria-expanded="false"], input[type=button]');
  for (const el of candidates) {
    if (el.hasAttribute('data-winnow-done') || !visible(el) || navigates(el) || el.disabled) continue;
    const text = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().replace(/\s+/g, ' ');
    const expander = el.getAttribute('aria-expanded') === 'false' ||
      (el.tagName === 'SUMMARY' && el.parentElement && !el.parentElement.open);
    if (text.length > 40 || unsafe.test(text) || !(expander || label.test(text))) continue;
    if (expander) el.setAttribute('data-winnow-done', '1');
    el.setAttribute('data-winnow-last', '1');
    el.click();
    await TWO_FRAMES;
    return text || el.tagName.toLowerCase();
  }
  return null;
}""".replace("TWO_FRAMES", TWO_FRAMES).replace("FRAMES_MAX_MS", str(FRAMES_MAX_MS))
MARK_DONE_JS = """() => { for (const el of document.querySelectorAll('[data-winnow-last]')) {
  el.removeAttribute('data-winnow-last'); el.setAttribute('data-winnow-done', '1'); } }"""
FORGET_LAST_JS = """() => { for (const el of document.querySelectorAll('[data-winnow-last]'))
  el.removeAttribute('data-winnow-last'); }"""
