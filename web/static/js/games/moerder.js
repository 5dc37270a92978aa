/* Finde den Mörder: the 6x6 board as tiles, the chain drawn over it, the turn and the buttons.
   Reads the game's own view JSON (companion/games/moerder/rules.py: view) and the runtime's
   snapshot (players with LED colours, rotations from the camera, prompt). */
(function () {
  "use strict";
  var C = window.Companion;
  var SIZE = 6;
  var TILES = ["M", "Ö", "R", "D", "E", "X"];

  function key(cell) { return cell[0] + "," + cell[1]; }
  function cellSet(list) {
    var s = {};
    (list || []).forEach(function (c) { s[key(c)] = true; });
    return s;
  }

  /* The victim: a chalk outline, drawn as SVG so it scales and turns like a letter. */
  function victimIcon() {
    var g = C.svg("svg", { viewBox: "0 0 100 100", class: "victim-icon", "aria-hidden": "true" });
    g.appendChild(C.svg("circle", { cx: "50", cy: "20", r: "11" }));
    g.appendChild(C.svg("path", {
      d: "M50 32 L50 62 M50 40 L30 52 L22 44 M50 40 L70 50 L80 40 M50 62 L36 88 M50 62 L66 86"
    }));
    return g;
  }

  function playerName(snap, index) {
    var p = (snap.players || [])[index];
    if (p && p.name) return p.name;
    var vp = ((snap.view || {}).players || [])[index];
    return vp ? vp.name : "?";
  }

  /* Build the board once per root; later calls only update what changed, so a turned tile
     flips in place instead of the whole board being redrawn. */
  function ensureBoard(root, ui) {
    if (root._moerder) return root._moerder;
    C.clear(root);
    var wrap = C.el("div", { class: "mb-wrap" });
    var board = C.el("div", { class: "mb-board", role: "grid", "aria-label": "6x6" });
    var tiles = [];
    for (var r = 0; r < SIZE; r++) {
      for (var c = 0; c < SIZE; c++) {
        (function (cell) {
          var face = C.el("span", { class: "mb-face" });
          var tile = C.el("button", {
            class: "mb-tile hidden", type: "button", role: "gridcell",
            dataset: { cell: key(cell) }, "aria-label": C.cellName(cell),
            onclick: function () { if (ui && ui.onTileTap) ui.onTileTap(cell, tile._shown); }
          }, face);
          tile._face = face;
          tile._shown = undefined;
          tiles.push(tile);
          board.appendChild(tile);
        })([r, c]);
      }
    }
    var overlay = C.svg("svg", { class: "mb-overlay", viewBox: "0 0 600 600", "aria-hidden": "true" });
    wrap.appendChild(board);
    wrap.appendChild(overlay);
    var legend = C.el("div", { class: "mb-legend" });
    root.appendChild(wrap);
    root.appendChild(legend);
    root._moerder = { tiles: tiles, overlay: overlay, legend: legend };
    return root._moerder;
  }

  function drawFace(tile, shown, rotation) {
    var face = tile._face;
    if (tile._shown === shown && tile._rotation === rotation) return false;
    var wasHidden = tile._shown === null || tile._shown === undefined;
    C.clear(face);
    tile.classList.remove("hidden", "letter", "victim");
    if (shown === null || shown === undefined) {
      tile.classList.add("hidden");
    } else if (shown === "X") {
      tile.classList.add("victim");
      face.appendChild(victimIcon());
    } else {
      tile.classList.add("letter");
      face.appendChild(C.el("span", { class: "mb-glyph", text: shown }));
    }
    face.style.transform = rotation ? "rotate(" + rotation + "deg)" : "";
    var flipped = tile._shown !== undefined && wasHidden && shown !== null && shown !== undefined;
    tile._shown = shown;
    tile._rotation = rotation;
    tile.setAttribute("aria-label", C.cellName(tile.dataset.cell.split(",").map(Number)) +
      (shown ? " " + (shown === "X" ? "✝" : shown) : ""));
    if (flipped) {
      tile.classList.remove("flip");
      void tile.offsetWidth; // restart the animation
      tile.classList.add("flip");
    }
    return flipped;
  }

  function drawChain(overlay, chain, kind) {
    if (!chain || chain.length < 2) return;
    var pts = chain.map(function (c) { return (c[1] * 100 + 50) + "," + (c[0] * 100 + 50); });
    var g = C.svg("g", { class: "mb-chain " + kind });
    g.appendChild(C.svg("polyline", { class: "glow", points: pts.join(" ") }));
    g.appendChild(C.svg("polyline", { class: "line", points: pts.join(" ") }));
    chain.forEach(function (c, i) {
      if (i === 0 || i === chain.length - 1) {
        g.appendChild(C.svg("circle", { cx: c[1] * 100 + 50, cy: c[0] * 100 + 50, r: 7 }));
      }
    });
    overlay.appendChild(g);
  }

  var renderer = {
    title: "Finde den Mörder",
    tapHint: true,  // a tile can be tapped to correct it or turn it by hand

    render: function (root, snap, ui) {
      var view = snap.view || {};
      var parts = ensureBoard(root, ui);
      var cells = view.cells || [];
      var rotations = (snap.seen && snap.seen.rotations) || [];
      var pending = cellSet(view.pending);
      var prompt = cellSet(snap.prompt && snap.prompt.cells);
      var chainSet = cellSet(view.chain);
      var unclaimedSet = cellSet(view.chain ? null : view.unclaimed_chain);
      var own = view.own_tile ? key(view.own_tile) : null;
      var hidden = 0;
      parts.tiles.forEach(function (tile, i) {
        var r = Math.floor(i / SIZE), c = i % SIZE, k = r + "," + c;
        var shown = (cells[r] || [])[c];
        if (shown === undefined) shown = null;
        if (shown === null) hidden++;
        var rot = ((rotations[r] || [])[c]) || 0;
        drawFace(tile, shown, shown === null ? 0 : rot);
        tile.classList.toggle("pending", !!pending[k]);
        tile.classList.toggle("prompted", !!prompt[k]);
        tile.classList.toggle("in-chain", !!chainSet[k]);
        tile.classList.toggle("in-unclaimed", !!unclaimedSet[k]);
        tile.classList.toggle("own", own === k);
        var editable = !!(ui && ui.canEdit) && view.phase !== "over";
        tile.classList.toggle("tappable", editable);
        tile.disabled = !editable;
      });
      C.clear(parts.overlay);
      if (view.chain) drawChain(parts.overlay, view.chain, "verified");
      else if (view.unclaimed_chain && view.phase === "over") drawChain(parts.overlay, view.unclaimed_chain, "unclaimed");

      C.clear(parts.legend);
      var remaining = view.remaining || {};
      ["M", "Ö", "R", "D", "E"].forEach(function (t) {
        if (remaining[t] === undefined) return;
        parts.legend.appendChild(C.el("span", { class: "mb-count", title: t },
          C.el("b", { text: t }), C.el("span", { text: "×" + remaining[t] })));
      });
      parts.legend.appendChild(C.el("span", { class: "mb-count hidden-count",
        text: C.t("tiles.left", { n: hidden }) }));
    },

    banner: function (snap) {
      var view = snap.view || {};
      var name = playerName(snap, view.turn);
      if (view.phase === "over") {
        var sub = [];
        var quitterWon = view.win_reason === "quitter";
        // a chain nobody claimed does not beat the quitter: the bet is that nobody finds the
        // word (docs/moerder.md), so the phone says why the quitter wins despite it
        if (view.unclaimed_chain && !view.chain && !quitterWon) sub.push(C.t("chain.unclaimed"));
        if (view.findable_since_turn) sub.push(C.t("chain.findable", { n: view.findable_since_turn }));
        if (view.winner === null || view.winner === undefined) {
          return { text: C.t("winner.none"), sub: [C.t("reason.none")].concat(sub).join(" · "), tone: "over" };
        }
        var reason = !quitterWon ? C.t("reason.claim") :
          C.t(view.unclaimed_chain ? "reason.quit_unclaimed" : "reason.quit");
        return { text: C.t("winner.is", { name: playerName(snap, view.winner) }),
          sub: [reason].concat(sub).join(" · "), tone: "win", colour: C.ledColour((snap.players[view.winner] || {}).colour, view.winner) };
      }
      var pending = (view.pending || []).length;
      var line = view.phase === "final_look" ? C.t("turn.final_look", { name: name }) : C.t("turn.of", { name: name });
      var subs = [C.t("turn.number", { n: view.turn_number })];
      if (pending) subs.push(C.t("pending", { n: pending }));
      return { text: line, sub: subs.join(" · "), tone: pending ? "alert" : "turn",
        colour: C.ledColour(((snap.players || [])[view.turn] || {}).colour, view.turn) };
    },

    badges: function (snap, index) {
      var view = snap.view || {};
      var out = [];
      if (view.quitter === index) out.push({ text: C.t("player.quit"), tone: "quit" });
      if (view.winner === index) out.push({ text: "★ " + C.t("player.winner"), tone: "win" });
      return out;
    },

    onTurn: function (snap, index) {
      var view = snap.view || {};
      return view.phase !== "over" && view.turn === index;
    },

    controls: function (snap) {
      var view = snap.view || {};
      if (!view.phase || view.phase === "over") return [];
      var name = playerName(snap, view.turn);
      var pending = (view.pending || []).length > 0;
      var turned = !!view.tile_turned_this_turn;
      if (view.phase === "final_look") {
        return [
          { id: "claim", label: C.t("control.claim"), action: { action: "claim" }, tone: "claim" },
          { id: "pass", label: C.t("control.pass"), action: { action: "pass" } }
        ];
      }
      return [
        { id: "next", label: C.t("control.next"), action: { action: "next" }, tone: "primary",
          disabled: pending || !turned },
        { id: "claim", label: C.t("control.claim"), action: { action: "claim" }, tone: "claim",
          disabled: pending || !turned },
        { id: "quit", label: C.t("control.quit"), action: { action: "quit" }, tone: "danger",
          disabled: pending || view.quitter !== null && view.quitter !== undefined,
          confirm: C.t("control.quit_confirm", { name: name }) }
      ];
    },

    players: { min: 2, max: 4 },

    /* Who starts: one of the names above (the rule text: "whoever reads this decides"). */
    setupFields: function (box, ctx) {
      var label = C.el("label", { for: "first-player", text: C.t("control.first") });
      var first = C.el("select", { id: "first-player" });
      function refresh() {
        var keep = first.value;
        C.clear(first);
        ctx.names().forEach(function (name, i) {
          first.appendChild(C.el("option", { value: String(i), text: name || C.t("control.player_n", { n: i + 1 }) }));
        });
        if (keep && Number(keep) < first.options.length) first.value = keep;
      }
      ctx.changed = refresh;
      refresh();
      box.appendChild(label);
      box.appendChild(first);
    },

    readSetup: function (box, names) {
      var first = box.querySelector("#first-player");
      return { players: names, first: Number(first && first.value || 0) };
    },

    /* Choices when a tile is tapped: what it may show. */
    tiles: TILES,

    describe: function (event) {
      if (!event) return C.t("history.start");
      switch (event.type) {
        case "turn_tile": return C.cellName(event.cell) + " " + C.t("event.turn_tile") + ": " + (event.tile === "X" ? "✝" : event.tile);
        case "next": return C.t("control.next");
        case "claim": return C.t("control.claim");
        case "quit": return C.t("control.quit");
        case "pass": return C.t("control.pass");
        case "correct": return C.t("correct.fix") + " " + C.cellName(event.cell) + ": " + (event.tile || C.t("correct.hidden"));
        case "undo": return C.t("event.undo");
        default: return event.type;
      }
    }
  };
  C.games.moerder = renderer;
})();
