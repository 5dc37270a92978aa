/* History: the games in the log, and one game replayed step by step with the same renderer
   as the live table, plus the advisor's chance of a MÖRDER over the turns as an SVG chart. */
(function () {
  "use strict";
  var C = window.Companion;
  var page = document.getElementById("history");
  var gameId = page.dataset.gameId;

  function when(iso) {
    if (!iso) return "";
    var d = new Date(iso);
    if (isNaN(d.getTime())) return iso;
    return d.toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  }

  function showList() {
    var list = document.getElementById("game-list");
    C.getJSON("/api/history").then(function (body) {
      C.clear(list);
      if (!body.games.length) list.appendChild(C.el("li", { class: "hint", text: C.t("history.empty") }));
      body.games.forEach(function (g) {
        var badges = [];
        if (g.in_progress || !g.ended) badges.push(C.el("span", { class: "badge badge-turn", text: C.t("history.in_progress") }));
        else if (g.reason === "abandoned") badges.push(C.el("span", { class: "badge badge-info", text: C.t("history.replaced") }));
        else if (g.winner) badges.push(C.el("span", { class: "badge badge-win", text: "★ " + g.winner }));
        else badges.push(C.el("span", { class: "badge badge-info", text: C.t("winner.none") }));
        list.appendChild(C.el("li", { class: "card game-item" },
          C.el("a", { href: "/history/" + g.id, class: "game-link" },
            C.el("strong", { text: (g.title || g.game) + " #" + g.id }),
            C.el("span", { class: "sub", text: (g.players || []).join(", ") }),
            C.el("span", { class: "sub", text: when(g.started) + " · " + C.t(g.events === 1 ? "history.event" : "history.events", { n: g.events }) })),
          C.el("div", { class: "badges" }, badges)));
      });
    }, function (err) { C.toast(err.message, "error"); });
  }

  function chart(steps, index) {
    var box = C.clear(document.getElementById("chart"));
    var pts = [];
    steps.forEach(function (s, i) {
      if (s.advisor && typeof s.advisor.p_end === "number") pts.push([i, s.advisor.p_end]);
    });
    if (!pts.length) { box.appendChild(C.el("p", { class: "hint", text: C.t("history.chart_hidden") })); return; }
    var W = 320, H = 160, L = 34, R = 8, T = 10, B = 22;
    var n = Math.max(1, steps.length - 1);
    function x(i) { return L + (W - L - R) * i / n; }
    function y(p) { return T + (H - T - B) * (1 - p); }
    var svg = C.svg("svg", { viewBox: "0 0 " + W + " " + H, class: "pend-chart", role: "img", "aria-label": C.t("history.chart") });
    [0, 0.5, 1].forEach(function (p) {
      svg.appendChild(C.svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "grid" }));
      svg.appendChild(C.svg("text", { x: L - 6, y: y(p) + 4, class: "axis", "text-anchor": "end", text: Math.round(p * 100) + "%" }));
    });
    var line = pts.map(function (p) { return x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1); }).join(" ");
    var area = x(pts[0][0]).toFixed(1) + "," + y(0) + " " + line + " " + x(pts[pts.length - 1][0]).toFixed(1) + "," + y(0);
    svg.appendChild(C.svg("polygon", { points: area, class: "area" }));
    svg.appendChild(C.svg("polyline", { points: line, class: "line" }));
    svg.appendChild(C.svg("line", { x1: x(index), x2: x(index), y1: T, y2: H - B, class: "now" }));
    var here = steps[index] && steps[index].advisor;
    if (here && typeof here.p_end === "number") {
      svg.appendChild(C.svg("circle", { cx: x(index), cy: y(here.p_end), r: 4.5, class: "dot" }));
    }
    svg.appendChild(C.svg("text", { x: L, y: H - 5, class: "axis", text: "0" }));
    svg.appendChild(C.svg("text", { x: W - R, y: H - 5, class: "axis", "text-anchor": "end", text: String(n) }));
    box.appendChild(svg);
  }

  function showReplay() {
    var root = document.getElementById("game-root");
    var slider = document.getElementById("step");
    var data = null;
    function players() {
      var names = (data.game.players || []).map(function (p) { return typeof p === "string" ? p : p.name; });
      return names.map(function (name, i) {
        var p = (data.game.players || [])[i];
        return { index: i, name: name, colour: (p && p.colour) || null };
      });
    }
    function draw(i) {
      var step = data.steps[i];
      var snap = { game: data.game.game, title: data.game.title, view: step.view, players: players(), seen: null };
      var r = C.renderer(snap.game);
      var view = step.view || {};
      snap.players.forEach(function (p, k) { p.on_turn = view.turn === k && view.phase !== "over"; });
      r.render(root, snap, { canEdit: false });
      var b = r.banner(snap);
      var banner = C.clear(document.getElementById("banner"));
      banner.className = "banner tone-" + (b.tone || "info");
      if (b.colour) banner.style.setProperty("--seat", b.colour);
      banner.appendChild(C.el("strong", { text: b.text }));
      if (b.sub) banner.appendChild(C.el("span", { class: "sub", text: b.sub }));
      var list = C.clear(document.getElementById("players"));
      snap.players.forEach(function (p, k) {
        var dot = C.el("i", { class: "led" + (p.on_turn ? " lit" : "") });
        dot.style.setProperty("--led", C.ledColour(p.colour, k));
        var li = C.el("li", { class: "player" + (p.on_turn ? " on-turn" : "") }, dot, C.el("span", { class: "name", text: p.name }));
        (r.badges ? r.badges(snap, k) : []).forEach(function (bd) { li.appendChild(C.el("span", { class: "badge badge-" + bd.tone, text: bd.text })); });
        list.appendChild(li);
      });
      document.getElementById("step-label").textContent = C.t("history.step", { i: i, n: data.steps.length - 1 }) +
        " · " + (r.describe ? r.describe(step.event) : (step.event ? step.event.type : ""));
      slider.value = String(i);
      chart(data.steps, i);
    }
    C.getJSON("/api/history/" + gameId).then(function (body) {
      data = body;
      // the chance chart belongs to games with an advisor (Mörder); others never show it
      document.getElementById("chart-card").hidden = !body.advice;
      slider.max = String(body.steps.length - 1);
      draw(body.steps.length - 1);
      if (body.error) C.toast(body.error, "warn");
    }, function (err) { C.toast(err.message, "error"); });
    slider.addEventListener("input", function () { draw(Number(slider.value)); });
    document.getElementById("step-prev").addEventListener("click", function () {
      if (data) draw(Math.max(0, Number(slider.value) - 1));
    });
    document.getElementById("step-next").addEventListener("click", function () {
      if (data) draw(Math.min(data.steps.length - 1, Number(slider.value) + 1));
    });
  }

  if (gameId) showReplay(); else showList();
})();
