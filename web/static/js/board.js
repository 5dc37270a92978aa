/* The club's board: asks /api/tables every poll_ms and draws every table and the standings.
   Every word comes from the labels the server rendered in the page's language. */
(function () {
  "use strict";
  var L = JSON.parse(document.getElementById("labels").textContent);
  var poll = Number(document.body.dataset.pollMs) || 1000;

  function t(key, values) {
    var text = L[key] || key;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(String(values[k])); });
    return text;
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function live(state) {
    var node = document.getElementById("live");
    node.dataset.state = state;
    node.querySelector("span").textContent = t(state === "on" ? "live.on" : "live.off");
  }

  function player(p, game) {
    var li = el("li", "player" + (game.on_turn === p.name ? " on-turn" : ""));
    var name = el("span", "board-name", p.name);
    li.appendChild(name);
    var right = el("span", "badges-row");
    if (game.on_turn === p.name) right.appendChild(el("span", "badge badge-turn", t("player.on_turn")));
    if (game.over && game.winners.indexOf(p.name) >= 0) right.appendChild(el("span", "badge badge-win", t("player.winner")));
    if (p.score !== null && p.score !== undefined) right.appendChild(el("span", "board-score", p.score));
    li.appendChild(right);
    return li;
  }

  function card(table) {
    var game = table.game;
    var box = el("article", "card board-table" + (table.online ? "" : " offline"));
    box.dataset.table = table.table;
    var head = el("header");
    head.appendChild(el("h3", null, table.table));
    head.appendChild(el("span", "board-status " + (table.online ? "online" : "offline"),
      t(table.online ? "board.online" : "board.offline")));
    box.appendChild(head);
    if (!game) { box.appendChild(el("p", "hint", t("board.no_game"))); return box; }
    box.appendChild(el("div", "board-game", game.title + " · " + t(table.events === 1 ? "board.event" : "board.events", {n: table.events})));
    var list = el("ul", "players");
    game.players.forEach(function (p) { list.appendChild(player(p, game)); });
    box.appendChild(list);
    var line;
    if (game.over) {
      line = game.winners.length ? t("winner.is", {name: game.winners.join(" & ")}) : t("winner.none");
      box.appendChild(el("p", "board-end", t("phase.over") + " — " + line));
    } else if (game.on_turn) {
      box.appendChild(el("p", "board-turn", t("turn.of", {name: game.on_turn})));
    }
    return box;
  }

  function standing(kind, rows) {
    var box = el("div", "card board-standing");
    box.dataset.game = kind;
    box.appendChild(el("h3", null, t("board.stand." + kind)));
    if (!rows.length) { box.appendChild(el("p", "hint", t("board.stand.empty"))); return box; }
    var field = kind === "kniffel" ? "total" : "wins";
    var table = el("table"), head = el("tr");
    [["board.col.rank", "num"], ["board.col.name", ""], ["board.col.games", "num"],
     ["board.col." + field, "num"]].forEach(function (c) { head.appendChild(el("th", c[1], t(c[0]))); });
    table.appendChild(head);
    rows.forEach(function (r) {
      var tr = el("tr");
      tr.appendChild(el("td", "num", r.rank));
      tr.appendChild(el("td", "", r.name));
      tr.appendChild(el("td", "num", r.games));
      tr.appendChild(el("td", "num", r[field]));
      table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }

  function draw(data) {
    var list = document.getElementById("table-list");
    list.replaceChildren.apply(list, data.tables.map(card));
    document.getElementById("no-tables").hidden = data.tables.length > 0;
    var stand = document.getElementById("standings");
    stand.replaceChildren.apply(stand, ["kniffel", "moerder", "murdero"].map(function (k) {
      return standing(k, data.standings[k] || []);
    }));
    document.getElementById("broker-lost").hidden = data.broker.connected;
  }

  function tick() {
    fetch("/api/tables", {cache: "no-store"}).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (data) {
      draw(data);
      live(data.broker.connected ? "on" : "off");
    }).catch(function () { live("off"); }).finally(function () { setTimeout(tick, poll); });
  }

  function tab() {
    var want = location.hash === "#tournament" ? "tournament" : "tables";
    ["tables", "tournament"].forEach(function (name) {
      document.getElementById(name).classList.toggle("on", name === want);
      document.getElementById("tab-" + name).classList.toggle("on", name === want);
    });
  }
  window.addEventListener("hashchange", tab);
  document.querySelectorAll(".board-tabs a").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      history.replaceState(null, "", a.getAttribute("href"));
      tab();
    });
  });
  tab();
  tick();
})();
