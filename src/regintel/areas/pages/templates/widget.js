/* regintel company widget: no dependencies, no cookies, Shadow DOM.
   <div data-regintel-widget data-country="sk" data-ico="35757442" data-token="TOKEN"></div>
   <script src="BASE/api/v1/widget.js?api_key=TOKEN" async></script> */
(function () {
  "use strict";
  var BASE = __BASE__;
  var COLOURS = {ok: "#2e7d32", warn: "#e65100", bad: "#c62828", none: "#607d8b"};
  function el(doc, tag, text, style) {
    var e = doc.createElement(tag);
    if (text !== undefined) e.textContent = String(text);
    if (style) e.setAttribute("style", style);
    return e;
  }
  function row(root, label, value, tone) {
    var r = el(document, "div", undefined, "display:flex;justify-content:space-between;gap:12px;padding:5px 0;border-top:1px solid #e3e9ef");
    r.appendChild(el(document, "span", label, "color:#55677a"));
    r.appendChild(el(document, "strong", value, "color:" + (COLOURS[tone] || "#10212f")));
    root.appendChild(r);
  }
  function render(host, data) {
    var shadow = host.shadowRoot || host.attachShadow({mode: "open"});
    while (shadow.firstChild) shadow.removeChild(shadow.firstChild);
    var box = el(document, "div", undefined, "font:14px/1.45 'DejaVu Sans',system-ui,sans-serif;color:#10212f;background:#fff;border:1px solid #d5dee7;border-radius:10px;padding:14px 16px;max-width:360px;box-shadow:0 1px 3px rgba(0,0,0,.06)");
    var title = el(document, "a", data.name, "display:block;font-weight:700;font-size:16px;color:#0d4f8b;text-decoration:none;margin-bottom:2px");
    title.href = BASE + data.url;
    title.target = "_blank";
    title.rel = "noopener";
    box.appendChild(title);
    box.appendChild(el(document, "div", data.country + " · " + data.national_id, "color:#55677a;font-size:12px;margin-bottom:8px"));
    row(box, "Status", data.insolvency === "none" ? data.status : data.insolvency, data.insolvency === "none" && data.status === "active" ? "ok" : "bad");
    row(box, "Credit grade", data.credit_grade || "not rated", data.credit_grade ? (/^[AB]/.test(data.credit_grade) ? "ok" : "warn") : "none");
    row(box, "NIS2", data.nis2, data.nis2 === "OUT OF SCOPE" ? "ok" : (data.nis2 === "NOT DETERMINED" ? "none" : "warn"));
    row(box, "Screening hits", data.sanctions_hits, data.sanctions_hits ? "warn" : "ok");
    box.appendChild(el(document, "div", "regintel · public register data", "color:#8a9aab;font-size:11px;margin-top:8px"));
    shadow.appendChild(box);
  }
  function fail(host, message) {
    var shadow = host.shadowRoot || host.attachShadow({mode: "open"});
    while (shadow.firstChild) shadow.removeChild(shadow.firstChild);
    shadow.appendChild(el(document, "div", message, "font:13px system-ui,sans-serif;color:#b71c1c;border:1px solid #f3c2c2;border-radius:8px;padding:10px 12px;max-width:360px"));
    host.setAttribute("data-regintel-state", "error");
  }
  function mount(host) {
    if (host.getAttribute("data-regintel-state")) return;
    host.setAttribute("data-regintel-state", "loading");
    var type = host.getAttribute("data-type") || "check";
    var url = BASE + "/api/v1/widget/data/" + encodeURIComponent(type) + "/" +
      encodeURIComponent(host.getAttribute("data-country") || "sk") + "/" +
      encodeURIComponent(host.getAttribute("data-ico") || "") + ".json?api_key=" +
      encodeURIComponent(host.getAttribute("data-token") || "");
    fetch(url, {credentials: "omit", mode: "cors"}).then(function (resp) {
      return resp.json().then(function (body) { return {ok: resp.ok, body: body}; });
    }).then(function (r) {
      if (!r.ok) { fail(host, (r.body.error && r.body.error.message) || "Unavailable"); return; }
      render(host, r.body.data);
      host.setAttribute("data-regintel-state", "ready");
    }).catch(function () { fail(host, "regintel is not reachable"); });
  }
  function start() {
    var hosts = document.querySelectorAll("[data-regintel-widget]");
    for (var i = 0; i < hosts.length; i++) mount(hosts[i]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
