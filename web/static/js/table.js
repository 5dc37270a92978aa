/* The table page: live state over server-sent events, drawn by the game's renderer, and the
   controls for a logged-in phone (the same actions as the hardware buttons). */
(function () {
  "use strict";
  var C = window.Companion;
  var root = document.getElementById("game-root");
  var current = null;       // the latest snapshot
  var currentGame = null;   // the renderer's game, to reset the root when the game changes
  var lastSeenVersion = -1; // effects of a version are announced once

  var ui = {
    canEdit: C.loggedIn,
    onTileTap: function (cell, shown) { openTileSheet(cell, shown); }
  };

  function renderBanner(r, snap) {
    var banner = document.getElementById("banner");
    C.clear(banner);
    if (!snap.game || !snap.view) {
      banner.className = "banner tone-idle";
      banner.appendChild(C.el("strong", { text: C.t("nogame.title") }));
      banner.appendChild(C.el("span", { class: "sub", text: C.t("nogame.text") }));
      return;
    }
    var b = r.banner(snap);
    banner.className = "banner tone-" + (b.tone || "info");
    if (b.colour) banner.style.setProperty("--seat", b.colour);
    banner.appendChild(C.el("strong", { text: b.text }));
    if (b.sub) banner.appendChild(C.el("span", { class: "sub", text: b.sub }));
  }

  function renderPlayers(r, snap) {
    var list = document.getElementById("players");
    C.clear(list);
    (snap.players || []).forEach(function (p, i) {
      var onTurn = r.onTurn ? r.onTurn(snap, i) : !!p.on_turn;
      var dot = C.el("i", { class: "led" + (onTurn || p.on_turn ? " lit" : "") });
      dot.style.setProperty("--led", C.ledColour(p.colour, i));
      var li = C.el("li", { class: "player" + (onTurn ? " on-turn" : ""), dataset: { index: i } },
        dot, C.el("span", { class: "name", text: p.name }));
      (r.badges ? r.badges(snap, i) : []).forEach(function (b) {
        li.appendChild(C.el("span", { class: "badge badge-" + (b.tone || "info"), text: b.text }));
      });
      if (onTurn) li.appendChild(C.el("span", { class: "badge badge-turn", text: C.t("player.on_turn") }));
      list.appendChild(li);
    });
  }

  function renderPrompt(snap) {
    var box = document.getElementById("prompt");
    var p = snap.prompt;
    C.clear(box);
    if (!p) { box.hidden = true; var open = document.getElementById("prompt-sheet"); if (open) open.remove(); return; }
    box.hidden = false;
    box.appendChild(C.el("strong", { text: C.t(p.kind === "impossible" ? "prompt.impossible" : "prompt.unsure") }));
    // the runtime's message is English; the page's own label says the same in the page language
    box.appendChild(C.el("span", { class: "cells", text: (p.cells || []).map(C.cellName).join(", "),
      title: p.message || "" }));
    if (C.loggedIn && (p.cells || []).length) {
      box.appendChild(C.el("button", { class: "btn btn-primary", type: "button", id: "prompt-answer",
        onclick: openPromptSheet }, C.t("prompt.answer")));
    }
  }

  /* The camera asked about some cells: the table answers all of them at once (the runtime
     takes a prompt's answers all or nothing). Pre-selected: the reader's best guess. */
  function openPromptSheet() {
    if (!current || !current.prompt) return;
    var r = C.renderer(current.game);
    var p = current.prompt;
    var old = document.getElementById("prompt-sheet");
    if (old) old.remove();
    var answers = {};
    var rows = (p.cells || []).map(function (cell) {
      var k = cell[0] + "," + cell[1];
      var guess = ((p.candidates || {})[k] || [])[0];
      answers[k] = guess === undefined ? null : guess;
      var row = C.el("div", { class: "sheet-tiles", dataset: { cell: k } });
      function mark() {
        Array.prototype.forEach.call(row.children, function (b) {
          b.classList.toggle("current", b.dataset.tile === String(answers[k]));
        });
      }
      (r.tiles || []).concat([null]).forEach(function (t) {
        row.appendChild(C.el("button", {
          class: "mb-tile pick " + (t === null ? "hidden" : "letter") + (t === "X" ? " victim" : ""),
          type: "button", dataset: { tile: String(t) }, title: t === null ? C.t("correct.hidden") : t,
          onclick: function () { answers[k] = t; mark(); }
        }, C.el("span", { class: "mb-glyph", text: t === null ? "" : t === "X" ? "✝" : t })));
      });
      mark();
      return C.el("div", { class: "prompt-row" }, C.el("h4", { text: C.cellName(cell) }), row);
    });
    var sheet = C.el("div", { class: "sheet", id: "prompt-sheet", role: "dialog", "aria-modal": "true" },
      C.el("div", { class: "sheet-body" },
        C.el("h3", { text: C.t(p.kind === "impossible" ? "prompt.impossible" : "prompt.unsure") }),
        rows,
        C.el("div", { class: "sheet-actions" },
          C.el("button", { class: "btn", type: "button", onclick: function () { sheet.remove(); } }, C.t("correct.cancel")),
          C.el("button", { class: "btn btn-primary", type: "button", id: "prompt-send", onclick: function () {
            sheet.remove();
            C.act({ action: "resolve", cells: answers }).catch(function () {});
          } }, C.t("prompt.send")))));
    sheet.addEventListener("click", function (e) { if (e.target === sheet) sheet.remove(); });
    document.body.appendChild(sheet);
  }

  function renderControls(r, snap) {
    var box = document.getElementById("controls");
    if (!box) return;
    C.clear(box);
    var buttons = snap.view ? r.controls(snap) : [];
    buttons.forEach(function (b) {
      box.appendChild(C.el("button", {
        class: "btn btn-" + (b.tone || "plain"), type: "button", id: "btn-" + b.id, disabled: !!b.disabled,
        onclick: function () {
          if (b.confirm && !window.confirm(b.confirm)) return;
          C.act(b.action).catch(function () {});
        }
      }, b.label));
    });
    box.appendChild(C.el("button", {
      class: "btn btn-ghost", type: "button", id: "btn-undo",
      disabled: !snap.view || snap.can_undo === false,
      onclick: function () { C.act({ action: "undo" }).catch(function () {}); }
    }, "↶ " + C.t("control.undo")));
    var toggle = document.getElementById("advisor-toggle");
    if (toggle) toggle.checked = !!(snap.advisor && snap.advisor.enabled);
    // a game without advisor figures offers no switch for them
    var settings = document.getElementById("settings");
    if (settings) settings.hidden = !(snap.advisor && snap.advisor.available);
  }

  function renderAdvisor(r, snap) {
    var card = document.getElementById("advisor-card");
    var a = snap.advisor || {};
    if (!a.enabled || !snap.view) { card.hidden = true; return; }
    card.hidden = false;
    var box = C.clear(document.getElementById("advisor"));
    if (r.advisor) { r.advisor(box, snap); card.hidden = !box.textContent.trim(); return; }
    if (a.possible !== null && a.possible !== undefined) {
      box.appendChild(C.el("p", { class: "verdict " + (a.possible ? "yes" : "no"),
        text: C.t(a.possible ? "advisor.possible" : "advisor.impossible") }));
    }
    if (typeof a.p_end === "number") {
      var pct = Math.round(a.p_end * 100);
      var meter = C.el("div", { class: "meter", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100",
        "aria-valuenow": String(pct), "aria-label": C.t("advisor.p_end") });
      var fill = C.el("span", { class: "fill" });
      fill.style.width = pct + "%";
      meter.appendChild(fill);
      box.appendChild(C.el("div", { class: "meter-row" },
        C.el("span", { text: C.t("advisor.p_end") }),
        C.el("b", { id: "p-end", text: pct + " %" + (typeof a.p_end_se === "number" && a.p_end_se > 0 ? " ± " + Math.max(1, Math.round(a.p_end_se * 100)) : "") })));
      box.appendChild(meter);
      box.appendChild(C.el("div", { class: "meter-row small" },
        C.el("span", { text: C.t("advisor.quit_bet") }), C.el("b", { text: (100 - pct) + " %" })));
    }
    card.hidden = !box.childNodes.length;  // figures still being worked out: no empty card
  }

  function announce(snap) {
    if (typeof snap.version !== "number" || snap.version <= lastSeenVersion) return;
    var first = lastSeenVersion < 0;
    lastSeenVersion = snap.version;
    var last = snap.last;
    if (first || !last) return;
    if (last.kind === "refused" && last.reason) C.toast(C.t("toast.refused", { reason: C.refusal(last) }), "warn");
    (last.effects || []).forEach(function (e) {
      if (e.kind === "claim_valid") C.toast(C.t("chain.verified"), "win");
    });
  }

  var onSnapshot = function () {};  // the new-game form waiting for the table's players

  function render(snap) {
    current = snap;
    onSnapshot();
    var r = C.renderer(snap.game);
    if (snap.game !== currentGame) {
      C.clear(root);
      root._moerder = null;
      currentGame = snap.game;
    }
    document.body.dataset.game = snap.game || "";
    renderBanner(r, snap);
    renderPrompt(snap);
    if (snap.view) r.render(root, snap, ui); else C.clear(root);
    renderPlayers(r, snap);
    renderControls(r, snap);
    var tapHint = document.getElementById("tap-hint");
    if (tapHint) tapHint.hidden = !r.tapHint;  // only games whose pieces can be tapped say so
    renderAdvisor(r, snap);
    announce(snap);
    var cam = document.getElementById("game-notes");
    if (cam && snap.camera) {
      C.clear(cam);
      var status = snap.camera.status || "none";
      cam.appendChild(C.el("span", { class: "cam cam-" + status, text: C.t("camera." + status) }));
      if (snap.logins_locked_s) {  // someone is guessing the PIN: every login waits
        cam.appendChild(C.el("span", { class: "cam cam-lost",
          text: C.t("logins.locked", { s: snap.logins_locked_s }) }));
      }
    }
  }

  /* Tapping a tile: turn a face-down one by hand (a table without camera), or correct a misread
     one (or answer the camera's question about it). */
  function openTileSheet(cell, shown) {
    if (!C.loggedIn || !current || !current.view) return;
    var r = C.renderer(current.game);
    var old = document.getElementById("sheet");
    if (old) old.remove();
    var hidden = shown === null || shown === undefined;
    var inPrompt = (current.prompt && current.prompt.cells || []).some(function (c) { return c[0] === cell[0] && c[1] === cell[1]; });
    if (inPrompt) { openPromptSheet(); return; }
    function send(tile) {
      sheet.remove();
      C.act(hidden ? { action: "turn", cell: cell, tile: tile }
                   : { action: "correct", cell: cell, tile: tile }).catch(function () {});
    }
    var choices = C.el("div", { class: "sheet-tiles" });
    (r.tiles || []).forEach(function (t) {
      if (hidden && t === null) return;
      choices.appendChild(C.el("button", { class: "mb-tile letter pick" + (t === shown ? " current" : "") + (t === "X" ? " victim" : ""),
        type: "button", dataset: { tile: t }, onclick: function () { send(t); } },
        C.el("span", { class: "mb-glyph", text: t === "X" ? "✝" : t })));
    });
    var sheet = C.el("div", { class: "sheet", id: "sheet", role: "dialog", "aria-modal": "true" },
      C.el("div", { class: "sheet-body" },
        C.el("h3", { text: C.t("correct.title", { cell: C.cellName(cell) }) + " · " + C.t(hidden ? "correct.turn" : "correct.fix") }),
        choices,
        C.el("div", { class: "sheet-actions" },
          hidden ? null : C.el("button", { class: "btn btn-ghost", type: "button", id: "sheet-hide", onclick: function () { send(null); } }, C.t("correct.hidden")),
          C.el("button", { class: "btn", type: "button", onclick: function () { sheet.remove(); } }, C.t("correct.cancel")))));
    sheet.addEventListener("click", function (e) { if (e.target === sheet) sheet.remove(); });
    document.body.appendChild(sheet);
  }

  /* New game: the game, the players' names, and whatever the game's renderer adds
     (Mörder: who starts). Prefilled with the table's current players. */
  function setupNewGame() {
    var form = document.getElementById("new-game-form");
    if (!form) return;
    var names = document.getElementById("player-names");
    var select = document.getElementById("game-select");
    var extra = document.getElementById("setup-fields");
    var ctx = {
      names: function () {
        return Array.prototype.map.call(names.querySelectorAll("input"), function (i) { return i.value.trim(); });
      },
      changed: function () {}
    };
    function seats() {
      var r = C.renderer(select.value);
      return Object.assign({ min: 1, max: 8 }, r.players || {});
    }
    function refreshButtons() {
      var s = seats();
      document.getElementById("add-player").disabled = names.children.length >= s.max;
      ctx.changed();
    }
    function addName(value) {
      if (names.children.length >= seats().max) return;
      var i = names.children.length;
      names.appendChild(C.el("input", { type: "text", maxlength: "24", required: true, value: value || "",
        placeholder: C.t("control.player_n", { n: i + 1 }), name: "player" + i,
        oninput: function () { ctx.changed(); } }));
      refreshButtons();
    }
    function chooseGame() {
      var r = C.renderer(select.value);
      C.clear(extra);
      ctx.changed = function () {};
      var s = seats();
      while (names.children.length > s.max) names.removeChild(names.lastChild);
      while (names.children.length < s.min) addName("");
      if (r.setupFields) r.setupFields(extra, ctx);
      refreshButtons();
    }
    document.getElementById("add-player").addEventListener("click", function () { addName(""); });
    select.addEventListener("change", chooseGame);
    var details = document.getElementById("new-game");
    var prefilled = false;
    // Opened before the table's state arrived, the form shows empty seats; the first state
    // then fills them in, unless someone has already changed the form.
    function prefill() {
      if (prefilled || !details.open) return;
      if (current) {
        C.clear(names);
        if (current.game && select.querySelector('option[value="' + current.game + '"]')) select.value = current.game;
        (current.players || []).forEach(function (p) { addName(p.name); });
        prefilled = true;
      }
      chooseGame();
    }
    form.addEventListener("input", function () { prefilled = true; });
    form.addEventListener("change", function () { prefilled = true; });
    details.addEventListener("toggle", prefill);
    onSnapshot = prefill;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var list = ctx.names().filter(function (n) { return n; });
      var r = C.renderer(select.value);
      var setup = r.readSetup ? r.readSetup(extra, list) : { players: list };
      C.act({ action: "new_game", game: select.value, setup: setup })
        .then(function () {
          document.getElementById("new-game").open = false;
          // the form sits below the board on a phone: the new game is what to look at now
          window.scrollTo(0, 0);
        }, function () {});
    });
    var toggle = document.getElementById("advisor-toggle");
    toggle.addEventListener("change", function () {
      C.act({ action: "settings", advisor: toggle.checked }).catch(function () { toggle.checked = !toggle.checked; });
    });
  }

  setupNewGame();
  C.getJSON("/api/info").then(function (info) {
    var url = document.getElementById("share-url");
    if (url) url.textContent = info.url;
  }, function () {});
  C.live(render);
})();
