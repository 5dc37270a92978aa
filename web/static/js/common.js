/* Table Companion: helpers every page shares (labels, DOM, actions, the live stream).
   Plain browser JavaScript, no build step. Game pages register a renderer in
   Companion.games[<game name>]; the table and history pages pick it by snapshot.game. */
(function () {
  "use strict";
  var C = (window.Companion = window.Companion || {});
  C.games = C.games || {};

  var labels = {};
  try {
    labels = JSON.parse(document.getElementById("labels").textContent);
  } catch (e) { /* no labels: keys are shown */ }

  C.lang = document.documentElement.lang || "en";
  C.playing = null;  // the game on the table, from the latest snapshot (see C.refusal)

  /* A game's page brings its own labels: C.addLabels({de: {...}, en: {...}}) at load time.
     The page's language wins, English fills gaps; labels the page already has are kept. */
  C.addLabels = function (byLang) {
    var mine = Object.assign({}, byLang.en || {}, byLang[C.lang] || {});
    Object.keys(mine).forEach(function (k) { if (!(k in labels)) labels[k] = mine[k]; });
  };

  /* The games a new game may be started with: [{name, title}]. */
  C.games_list = [];
  try {
    C.games_list = JSON.parse(document.getElementById("games").textContent) || [];
  } catch (e) { /* none listed */ }

  /* A label in the page's language, with {name} placeholders filled in. */
  C.t = function (key, values) {
    var text = labels[key] || key;
    if (values) {
      Object.keys(values).forEach(function (k) {
        text = text.split("{" + k + "}").join(String(values[k]));
      });
    }
    return text;
  };

  function meta(name) {
    var m = document.querySelector('meta[name="' + name + '"]');
    return m ? m.getAttribute("content") : "";
  }
  C.csrf = function () { return meta("csrf"); };
  C.loggedIn = meta("logged-in") === "1";

  /* el("div", {class: "x", text: "y", onclick: fn, dataset: {a: 1}}, child, ...) */
  C.el = function (tag, attrs) {
    var node = document.createElement(tag);
    applyAttrs(node, attrs || {});
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  };
  var SVGNS = "http://www.w3.org/2000/svg";
  C.svg = function (tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.setAttribute("class", attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  };
  function applyAttrs(node, attrs) {
    Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else if (k === "dataset") Object.keys(v).forEach(function (d) { node.dataset[d] = v[d]; });
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), v);
      else if (v === true) node.setAttribute(k, "");
      else node.setAttribute(k, v);
    });
  }
  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  /* A game page's own stylesheet, linked once. Call it while the page's script loads: the
     sheet gets the same version query as the script's address, so a phone fetches both
     afresh after an update. Returns the function that links it. */
  C.stylesheet = function (name) {
    var src = (document.currentScript && document.currentScript.src) || "";
    var version = src.indexOf("?") >= 0 ? src.slice(src.indexOf("?")) : "";
    return function () {
      if (document.getElementById("css-" + name)) return;
      document.head.appendChild(C.el("link", { id: "css-" + name, rel: "stylesheet",
                                                href: "/static/css/" + name + ".css" + version }));
    };
  };
  C.clear = function (node) { while (node.firstChild) node.removeChild(node.firstChild); return node; };

  /* LED colour names from the config, as the page draws them. */
  var LED = {
    red: "#ef4444", green: "#22c55e", blue: "#3b82f6", yellow: "#facc15", white: "#f5f5f4",
    orange: "#fb923c", purple: "#a855f7", pink: "#f472b6", cyan: "#22d3ee"
  };
  var SEATS = ["red", "green", "blue", "yellow"];
  C.ledColour = function (name, index) {
    if (name && LED[String(name).toLowerCase()]) return LED[String(name).toLowerCase()];
    if (name && /^#[0-9a-f]{3,8}$/i.test(name)) return name;
    return LED[SEATS[(index || 0) % SEATS.length]];
  };

  var toastTimer = null;
  C.toast = function (message, tone) {
    var box = document.getElementById("toast");
    if (!box) return;
    box.textContent = message;
    box.className = "toast toast-" + (tone || "info");
    box.hidden = false;
    clearTimeout(toastTimer);
    // a long sentence (a refusal's whole reason) stays long enough to be read to the end
    toastTimer = setTimeout(function () { box.hidden = true; }, Math.max(4000, String(message).length * 70));
  };

  /* A refusal in the page's language: the rules send a stable code and its details; a game's
     labels word it as "refused.<code>" with {detail} placeholders. Every game's labels share
     one page, so a game words a code another game uses differently as "refused.<game>.<code>";
     a refusal naming the rule it breaks (details.rule) is worded by "...<code>.<rule>" first.
     The game's renderer may dress the details for its sentences first (wordDetails: a card
     with its suit symbol, a colour by name). A code no label words yet falls back to the
     rules' own sentence. The game is the one on the table unless the caller names it. */
  C.refusal = function (body, game) {
    if (!body) return "";
    if (!body.code) return body.reason || "";
    game = game || C.playing;
    var details = body.details || {};
    var codes = details.rule ? [body.code + "." + details.rule, body.code] : [body.code];
    var keys = [];
    codes.forEach(function (code) {
      if (game) keys.push("refused." + game + "." + code);
      keys.push("refused." + code);
    });
    var key = keys.filter(function (k) { return k in labels; })[0];
    if (!key) return body.reason || "";
    var dress = game && C.games[game] && C.games[game].wordDetails;
    return C.t(key, dress ? dress(details) : details);
  };

  /* A server's refusal that is not the rules' (an old page, a lost login, a full log) in the
     page's language: its stable "error" word picks a "server.<word>" label; a word without
     one shows the server's own reason. */
  C.serverError = function (body) {
    if (!body) return "";
    var key = "server." + body.error;
    return body.error && labels[key] ? C.t(key, body) : (body.reason || "");
  };

  /* Running totals as lines, one per side, the start at 0 added (Murdero's hands, Wort-Kniffel's
     rounds): o = {id, cls, label, legendClass, dataKey, xMax, xStep, step, lo, hi, target,
     series: [{name, colour, points: [total after step 1, 2, …]}]}. Returns [svg, legend]. */
  C.lineChart = function (o) {
    var W = 340, H = 185, L = 34, R = 12, T = 12, B = 24;
    var values = [o.lo || 0, o.hi || 0].concat(typeof o.target === "number" ? [o.target] : []);
    o.series.forEach(function (s) { values = values.concat(s.points); });
    var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values), n = Math.max(1, o.xMax);
    function x(i) { return L + (W - L - R) * i / n; }
    function y(v) { return T + (H - T - B) * (1 - (v - lo) / Math.max(1, hi - lo)); }
    function row(v, cls) { return C.svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: cls }); }
    var svg = C.svg("svg", { viewBox: "0 0 " + W + " " + H, class: o.cls, id: o.id, role: "img", "aria-label": o.label });
    var step = o.step || (hi - lo > 150 ? 50 : 25);
    for (var g = Math.ceil(lo / step) * step; g <= hi; g += step) {
      svg.appendChild(row(g, "grid"));
      svg.appendChild(C.svg("text", { x: L - 5, y: y(g) + 4, class: "axis", "text-anchor": "end", text: String(g) }));
    }
    if (typeof o.target === "number") svg.appendChild(row(o.target, "target"));
    for (var i = 0; i <= n; i++) {
      if (i % (o.xStep || 1) === 0 || i === n) svg.appendChild(C.svg("text", { x: x(i), y: H - 6, class: "axis", "text-anchor": "middle", text: String(i) }));
    }
    var legend = C.el("div", { class: o.legendClass });
    o.series.forEach(function (s) {
      var pts = [[0, 0]].concat(s.points.map(function (v, k) { return [k + 1, v]; }));
      var series = C.svg("g", { class: "series" });
      series.setAttribute(o.dataKey, s.name);
      var poly = C.svg("polyline", { points: pts.map(function (p) { return x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1); }).join(" "), class: "line" });
      poly.style.stroke = s.colour;
      series.appendChild(poly);
      pts.slice(1).forEach(function (p) {
        var dot = C.svg("circle", { cx: x(p[0]).toFixed(1), cy: y(p[1]).toFixed(1), r: 3.5, class: "dot" });
        dot.style.fill = s.colour;
        dot.appendChild(C.svg("title", { text: s.name + ": " + p[1] }));
        series.appendChild(dot);
      });
      svg.appendChild(series);
      var sw = C.el("i");
      sw.style.background = s.colour;
      legend.appendChild(C.el("span", {}, sw, s.name));
    });
    return [svg, legend];
  };

  C.getJSON = function (url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        return r.json().then(function (body) {
          if (!r.ok) throw Object.assign(new Error(body.reason || r.statusText), { body: body, status: r.status });
          return body;
        });
      });
  };

  /* Send an action; resolves with the new snapshot, shows refusals as a toast. */
  C.act = function (action) {
    return fetch("/api/action", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": C.csrf() },
      body: JSON.stringify(action)
    }).then(function (r) {
      return r.json().catch(function () { return { reason: r.statusText }; }).then(function (body) {
        if (r.status === 401) {
          window.location.href = "/login?next=" + encodeURIComponent(window.location.pathname);
          throw new Error(body.reason);
        }
        if (r.status === 409) {
          C.toast(C.t("toast.refused", { reason: C.refusal(body) }), "warn");
          throw Object.assign(new Error(body.reason), { body: body });
        }
        if (!r.ok) {
          C.toast(C.t("toast.error", { reason: C.serverError(body) || r.status }), "error");
          throw Object.assign(new Error(body.reason), { body: body });
        }
        if (body.state && C.onSnapshot) C.onSnapshot(body.state);
        return body.state;
      });
    }, function (err) {
      C.toast(C.t("toast.error", { reason: err.message }), "error");
      throw err;
    });
  };

  /* Send one of the game's own events (its codec's JSON, {"type": ...}); like C.act, a refusal
     shows its reason and rejects with the JSON body ({error, code, reason}). */
  C.sendEvent = function (event) {
    return C.act({ action: "event", event: event });
  };

  function setLive(state) {
    var live = document.getElementById("live");
    if (!live) return;
    live.dataset.state = state;
    var key = state === "on" ? "live.on" : state === "off" ? "live.off" : "live.connecting";
    live.title = C.t(key);
    live.lastChild.textContent = C.t(key);
  }

  /* Follow the table live: server-sent events, with a polling fallback while the stream is
     refused (all slots taken) or down, and a fresh stream when the page is shown again. */
  C.live = function (onSnapshot) {
    var source = null, poll = null, retry = null, lastVersion = -1;
    function deliver(snap) {
      if (typeof snap.version === "number") {
        if (snap.version < lastVersion) return;
        lastVersion = snap.version;
      }
      C.playing = snap.game || null;
      onSnapshot(snap);
    }
    C.onSnapshot = deliver;
    function startPolling() {
      if (poll) return;
      poll = setInterval(function () { C.getJSON("/api/state").then(deliver, function () {}); }, 2000);
    }
    function stopPolling() { clearInterval(poll); poll = null; }
    function connect() {
      clearTimeout(retry);
      if (source) source.close();
      setLive("connecting");
      source = new EventSource("/api/events");
      source.onopen = function () { setLive("on"); stopPolling(); };
      source.onmessage = function (e) {
        try { deliver(JSON.parse(e.data)); } catch (err) { /* a bad message is skipped */ }
      };
      source.onerror = function () {
        setLive("off");
        if (source.readyState === EventSource.CLOSED) {
          // refused (503) or gone: poll meanwhile and try the stream again later
          startPolling();
          retry = setTimeout(connect, 10000);
        }
      };
    }
    C.getJSON("/api/state").then(deliver, function () {});
    connect();
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        // a hidden page gives its stream slot back to the phones that are looking
        if (source) source.close();
        source = null;
        stopPolling();
        clearTimeout(retry);
      } else {
        connect();
      }
    });
  };

  C.cellName = function (cell) {
    return "ABCDEF".charAt(cell[1]) + (cell[0] + 1);
  };

  /* The renderer for a game, or the generic one that shows the state as text. */
  C.renderer = function (game) {
    return (game && C.games[game]) || C.genericRenderer;
  };
  /* A renderer is an object in C.games[<game>] (static/js/games/<game>.js). Every hook but
     render is optional:
       render(root, snap, ui)      draw snap.view into root (ui.canEdit: logged in;
                                   ui.onTileTap(cell, shown) for board games)
       banner(snap) -> {text, sub, tone, colour}    whose turn / who won
       badges(snap, seat) -> [{text, tone}]          beside a player's name
       onTurn(snap, seat) -> bool
       controls(snap) -> [{id, label, action, tone, disabled, confirm}]   the buttons
       players -> {min, max}                          seats the new-game form offers
       setupFields(box, ctx)                          extra set-up inputs (ctx.names())
       readSetup(box, names) -> setup object          what new_game sends (default {players})
       describe(event) -> text                        one logged event, for the history
       wordDetails(details) -> details                a refusal's details as its labels show
                                                      them (see C.refusal) */
  C.genericRenderer = {
    render: function (root, snap) {
      C.clear(root);
      root.appendChild(C.el("p", { class: "hint", text: C.t("generic.view") }));
      root.appendChild(C.el("pre", { class: "raw", text: JSON.stringify(snap.view, null, 2) }));
    },
    banner: function (snap) { return { text: snap.title || "", tone: "info" }; },
    badges: function () { return []; },
    controls: function () { return []; }
  };
})();
