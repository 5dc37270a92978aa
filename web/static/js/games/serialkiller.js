/* Serial Killer: the six graves with their cards, the card entry (rank, then suit), the choices
   the rules allow now (the engine's legal(state), sent in the view as `legal`), each player's
   clue counters and held cards, arrests and the winner. Reads the game's view JSON
   (companion/games/serialkiller/rules.py: view); the server checks every card and choice. */
(function () {
  "use strict";
  var C = window.Companion;
  var RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  var SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
  var SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var CLUES = 6;

  var LABELS = {
    en: {
      "sk.choosing": "Draw a card each: high card goes first", "sk.choosing_sub": "Ace high; a tie for the top draws again",
      "sk.drawing": "{name} draws for grave {grave}", "sk.drawing_sub": "turn {n} · {left} card(s) to draw",
      "sk.deciding": "{name} drew {card}", "sk.deciding_sub": "hold it, or play it now",
      "sk.ending": "{name}: draws done", "sk.ending_sub": "play held cards, or end the turn",
      "sk.winner": "{name} wins: the last killer on the loose", "sk.winner_sub": "{n} arrest(s) · {turns} turns",
      "sk.graves": "Graves", "sk.grave": "Grave {n}", "sk.open": "open", "sk.closed": "closed",
      "sk.empty": "empty", "sk.next": "next", "sk.pending": "waits",
      "sk.entry": "Card drawn", "sk.entry_first": "Card drawn by", "sk.pick_rank": "rank", "sk.pick_suit": "suit",
      "sk.entry_hint": "Tap the rank, then the suit: the card is entered at once. Dimmed cards are already out.",
      "sk.choices": "What happens with it", "sk.hold": "Hold", "sk.bury": "Bury", "sk.bury_in": "Bury in grave {n}",
      "sk.inform": "Inform on…", "sk.discredit": "Discredit a clue", "sk.end_turn": "End the turn",
      "sk.on_grave": "on grave {n}", "sk.choose_grave": "Tap a grave to choose it; otherwise the first that fits.",
      "sk.target": "Inform on whom?", "sk.winner_badge": "winner", "sk.first_title": "Drawing for the first player", "sk.round": "round {n}", "sk.first_draw": "high card decides (draw at the table)", "sk.cancel": "Cancel",
      "sk.players": "Killers", "sk.clues": "{n} clue(s) left", "sk.police": "police: {n}", "sk.held": "held",
      "sk.arrested": "arrested", "sk.on_turn": "on turn", "sk.stack": "{n} in the victim stack",
      "sk.reshuffles": "{n} reshuffle(s)", "sk.aside": "{n} set aside",
      "sk.refused": "Not accepted: {reason}", "sk.killed": "killed this turn",
      "sk.clue_due": "no victim: the police find a clue as the turn ends",
      "sk.event.first_draw": "{player} draws {card}", "sk.event.draw": "draws {card}", "sk.event.hold": "holds the card",
      "sk.event.bury": "buries a corpse", "sk.event.inform": "informs on {target}", "sk.event.discredit": "discredits a clue",
      "sk.event.end_turn": "ends the turn", "sk.event.undo": "undo",
      "sk.role_a.corpse": "a corpse", "sk.role_a.informant": "an informant", "sk.role_no.corpse": "no corpse", "sk.role_no.informant": "no informant",
      "refused.serialkiller.game_over": "the game is over: {winner} is still on the loose",
      "refused.serialkiller.unknown_event": "Serial Killer has no event {event}",
      "refused.serialkiller.wrong_phase.choosing": "not now: the players are drawing for who goes first",
      "refused.serialkiller.wrong_phase.drawing": "not now: {player} is drawing ({left} card(s) to go)",
      "refused.serialkiller.wrong_phase.deciding": "not now: {player} must first hold, bury or use the {card}",
      "refused.serialkiller.wrong_phase.ending": "not now: {player}'s draws are done; bury, inform, discredit or end the turn",
      "refused.serialkiller.wrong_phase.over": "not now: the game is over",
      "refused.serialkiller.card_not_in_stack.grave": "{card} cannot be drawn: it is already out (in grave {grave}) and the deck has not been reshuffled since",
      "refused.serialkiller.card_not_in_stack.held": "{card} cannot be drawn: it is already out (held by {player}) and the deck has not been reshuffled since",
      "refused.serialkiller.card_not_in_stack.aside": "{card} cannot be drawn: it is already out (set aside with an arrested player's cards) and the deck has not been reshuffled since",
      "refused.serialkiller.card_not_in_stack.pending": "{card} cannot be drawn: it is already out (just drawn) and the deck has not been reshuffled since",
      "refused.serialkiller.card_not_in_stack.first": "{card} cannot be drawn: it is already out (drawn for the first player) and the deck has not been reshuffled since",
      "refused.serialkiller.unknown_player": "{player} is not playing",
      "refused.serialkiller.not_drawing": "{player} is not in this draw (only tied players draw again)",
      "refused.serialkiller.already_drew": "{player} has drawn in this round",
      "refused.serialkiller.no_draws_left": "this turn has no draws left",
      "refused.serialkiller.no_such_grave": "graves are numbered 1 to {graves}, not {grave}",
      "refused.serialkiller.wrong_card": "the card just drawn is the {card}, not {role_a}",
      "refused.serialkiller.none_held": "{player} holds {role_no}",
      "refused.serialkiller.wrong_grave": "a corpse buried as it is drawn goes into the grave it was drawn for ({grave}); hold it to bury it elsewhere at the end of the turn",
      "refused.serialkiller.grave_needed": "say which open grave the corpse goes into",
      "refused.serialkiller.grave_closed": "grave {grave} is already full",
      "refused.serialkiller.no_victim.none": "an informant needs a victim (King or Queen) in a grave, and there is none",
      "refused.serialkiller.no_victim.grave": "grave {grave} holds no victim (King or Queen) for the informant",
      "refused.serialkiller.inform_on_self": "an informant informs on another player; to get a clue back, discredit",
      "refused.serialkiller.already_arrested": "{player} has already been arrested",
      "refused.serialkiller.no_clue_to_discredit": "the police have no clue on {player} to discredit"
    },
    de: {
      "sk.choosing": "Jeder zieht eine Karte: die höchste beginnt", "sk.choosing_sub": "Ass hoch; bei Gleichstand oben wird neu gezogen",
      "sk.drawing": "{name} zieht für Grab {grave}", "sk.drawing_sub": "Zug {n} · noch {left} Karte(n)",
      "sk.deciding": "{name} zog {card}", "sk.deciding_sub": "behalten oder jetzt ausspielen",
      "sk.ending": "{name}: alle Karten gezogen", "sk.ending_sub": "gehaltene Karten spielen oder den Zug beenden",
      "sk.winner": "{name} gewinnt: als letzter Mörder auf freiem Fuß", "sk.winner_sub": "{n} Verhaftung(en) · {turns} Züge",
      "sk.graves": "Gräber", "sk.grave": "Grab {n}", "sk.open": "offen", "sk.closed": "geschlossen",
      "sk.empty": "leer", "sk.next": "als Nächstes", "sk.pending": "wartet",
      "sk.entry": "Gezogene Karte", "sk.entry_first": "Karte gezogen von", "sk.pick_rank": "Wert", "sk.pick_suit": "Farbe",
      "sk.entry_hint": "Erst den Wert, dann die Farbe antippen: die Karte wird sofort eingetragen. Blasse Karten sind schon draußen.",
      "sk.choices": "Was damit geschieht", "sk.hold": "Behalten", "sk.bury": "Begraben", "sk.bury_in": "In Grab {n} begraben",
      "sk.inform": "Verpfeifen…", "sk.discredit": "Hinweis entkräften", "sk.end_turn": "Zug beenden",
      "sk.on_grave": "auf Grab {n}", "sk.choose_grave": "Ein Grab antippen, um es zu wählen; sonst das erste passende.",
      "sk.target": "Wen verpfeifen?", "sk.winner_badge": "Sieg", "sk.first_title": "Ziehen um den ersten Zug", "sk.round": "Runde {n}", "sk.first_draw": "höchste Karte entscheidet (am Tisch ziehen)", "sk.cancel": "Abbrechen",
      "sk.players": "Mörder", "sk.clues": "noch {n} Hinweis(e)", "sk.police": "Polizei: {n}", "sk.held": "gehalten",
      "sk.arrested": "verhaftet", "sk.on_turn": "am Zug", "sk.stack": "{n} im Opferstapel",
      "sk.reshuffles": "{n}× neu gemischt", "sk.aside": "{n} beiseite",
      "sk.refused": "Nicht angenommen: {reason}", "sk.killed": "hat in diesem Zug getötet",
      "sk.clue_due": "kein Opfer: die Polizei findet beim Zugende einen Hinweis",
      "sk.event.first_draw": "{player} zieht {card}", "sk.event.draw": "zieht {card}", "sk.event.hold": "behält die Karte",
      "sk.event.bury": "begräbt eine Leiche", "sk.event.inform": "verpfeift {target}", "sk.event.discredit": "entkräftet einen Hinweis",
      "sk.event.end_turn": "beendet den Zug", "sk.event.undo": "zurück",
      "sk.role_a.corpse": "eine Leiche", "sk.role_a.informant": "ein Informant", "sk.role_no.corpse": "keine Leiche", "sk.role_no.informant": "keinen Informanten",
      "refused.serialkiller.game_over": "das Spiel ist vorbei: {winner} ist noch auf freiem Fuß",
      "refused.serialkiller.unknown_event": "Serial Killer kennt kein Ereignis {event}",
      "refused.serialkiller.wrong_phase.choosing": "jetzt nicht: es wird noch gezogen, wer beginnt",
      "refused.serialkiller.wrong_phase.drawing": "jetzt nicht: {player} zieht noch (noch {left} Karte(n))",
      "refused.serialkiller.wrong_phase.deciding": "jetzt nicht: {player} muss {card} erst behalten, begraben oder ausspielen",
      "refused.serialkiller.wrong_phase.ending": "jetzt nicht: {player} hat fertig gezogen; begraben, verpfeifen, entkräften oder den Zug beenden",
      "refused.serialkiller.wrong_phase.over": "jetzt nicht: das Spiel ist vorbei",
      "refused.serialkiller.card_not_in_stack.grave": "{card} kann nicht gezogen werden: die Karte ist schon draußen (in Grab {grave}), und seitdem wurde nicht neu gemischt",
      "refused.serialkiller.card_not_in_stack.held": "{card} kann nicht gezogen werden: {player} hält die Karte, und seitdem wurde nicht neu gemischt",
      "refused.serialkiller.card_not_in_stack.aside": "{card} kann nicht gezogen werden: die Karte liegt bei den Karten eines Verhafteten beiseite, und seitdem wurde nicht neu gemischt",
      "refused.serialkiller.card_not_in_stack.pending": "{card} kann nicht gezogen werden: die Karte wurde gerade gezogen",
      "refused.serialkiller.card_not_in_stack.first": "{card} kann nicht gezogen werden: die Karte wurde schon beim Ziehen um den ersten Zug gezogen, und seitdem wurde nicht neu gemischt",
      "refused.serialkiller.unknown_player": "{player} spielt nicht mit",
      "refused.serialkiller.not_drawing": "{player} zieht diesmal nicht mit (nur wer gleichauf lag, zieht erneut)",
      "refused.serialkiller.already_drew": "{player} hat in dieser Runde schon gezogen",
      "refused.serialkiller.no_draws_left": "in diesem Zug ist nichts mehr zu ziehen",
      "refused.serialkiller.no_such_grave": "die Gräber sind von 1 bis {graves} nummeriert, nicht {grave}",
      "refused.serialkiller.wrong_card": "die gerade gezogene Karte ist {card}, nicht {role_a}",
      "refused.serialkiller.none_held": "{player} hält {role_no}",
      "refused.serialkiller.wrong_grave": "eine Leiche, die beim Ziehen begraben wird, kommt in ihr Grab ({grave}); behalten, um sie am Ende des Zuges anderswo zu begraben",
      "refused.serialkiller.grave_needed": "sagen, in welches offene Grab die Leiche kommt",
      "refused.serialkiller.grave_closed": "Grab {grave} ist schon voll",
      "refused.serialkiller.no_victim.none": "ein Informant braucht ein Opfer (König oder Dame) in einem Grab, und es gibt keins",
      "refused.serialkiller.no_victim.grave": "in Grab {grave} liegt kein Opfer (König oder Dame) für den Informanten",
      "refused.serialkiller.inform_on_self": "ein Informant verpfeift einen anderen Spieler; wer einen Hinweis zurückwill, entkräftet",
      "refused.serialkiller.already_arrested": "{player} ist schon verhaftet",
      "refused.serialkiller.no_clue_to_discredit": "die Polizei hat keinen Hinweis auf {player}, den es zu entkräften gäbe"
    }
  };
  C.addLabels(LABELS);  // the page's language, English where a label lacks it
  var t = C.t;

  var ensureStyle = C.stylesheet("serialkiller");  // linked at the first render


  function parts(card) { return { rank: card.slice(0, -1), suit: card.slice(-1) }; }
  function pretty(card) { var p = parts(card); return p.rank + SYMBOL[p.suit]; }
  function role(card) {
    var r = parts(card).rank;
    return r === "K" || r === "Q" ? "victim" : r === "J" ? "corpse" : r === "A" ? "informant" : "missed";
  }

  /* A playing card, drawn small: rank over suit, red or black. */
  function cardFace(card, extra) {
    var p = parts(card);
    var red = p.suit === "H" || p.suit === "D";
    return C.el("span", { class: "sk-card " + (red ? "red" : "black") + " role-" + role(card) + (extra ? " " + extra : ""),
      dataset: { card: card }, title: pretty(card) },
      C.el("b", { text: p.rank }), C.el("i", { text: SYMBOL[p.suit] }));
  }

  function nameOf(snap, view, i) {
    var p = (snap.players || [])[i] || (view.players || [])[i];
    return p ? p.name : "?";
  }

  function send(state, event) {
    state.error = null;
    return C.act({ action: "event", event: event }).then(function () {
      state.rank = null;
      state.picking = null;
      state.grave = null;
      state.rerender();
    }, function (err) {
      state.error = (err && err.body && C.refusal(err.body, "serialkiller")) || (err && err.message) || "?";
      state.rerender();
    });
  }

  /* --- the graves ---------------------------------------------------------------------------- */

  function drawGraves(box, view, state, canEdit) {
    var card = C.el("section", { class: "card sk-graves-card" });
    var head = C.el("div", { class: "sk-head" }, C.el("h2", { text: t("sk.graves") }),
      C.el("span", { class: "sk-stack", id: "sk-stack", text: t("sk.stack", { n: view.victim_stack }) }));
    card.appendChild(head);
    var grid = C.el("div", { class: "sk-graves", id: "sk-graves" });
    (view.graves || []).forEach(function (g) {
      var classes = ["sk-grave", g.open ? "open" : "closed"];
      if (g.victims.length) classes.push("has-victim");
      if (view.next_grave === g.number) classes.push("next");
      if (view.pending_grave === g.number) classes.push("pending");
      if (state.grave === g.number) classes.push("chosen");
      var pile = C.el("div", { class: "sk-pile" });
      g.cards.forEach(function (c) { pile.appendChild(cardFace(c)); });
      if (!g.cards.length) pile.appendChild(C.el("span", { class: "sk-empty", text: t("sk.empty") }));
      var tag = view.pending_grave === g.number ? t("sk.pending") : view.next_grave === g.number ? t("sk.next") :
        g.open ? t("sk.open") : t("sk.closed");
      grid.appendChild(C.el("button", { type: "button", class: classes.join(" "), dataset: { grave: String(g.number) },
        disabled: !canEdit, "aria-pressed": state.grave === g.number ? "true" : "false",
        onclick: function () { state.grave = state.grave === g.number ? null : g.number; state.rerender(); } },
        C.el("span", { class: "sk-grave-no", text: String(g.number) }),
        C.el("span", { class: "sk-grave-tag", text: tag }), pile));
    });
    card.appendChild(grid);
    var facts = [t("sk.reshuffles", { n: view.reshuffles })];
    if ((view.set_aside || []).length) facts.push(t("sk.aside", { n: view.set_aside.length }));
    card.appendChild(C.el("p", { class: "hint sk-facts", text: facts.join(" · ") }));
    box.appendChild(card);
  }

  /* --- entering a card ------------------------------------------------------------------------ */

  function firstDrawer(view) {
    var drawers = view.drawing_for_first || [];
    var rounds = view.first_player_draws || [];
    var last = rounds[rounds.length - 1] || [];
    var drawn = last.length < drawers.length ? last.map(function (d) { return d.player; }) : [];
    return drawers.filter(function (n) { return drawn.indexOf(n) < 0; });
  }

  function drawEntry(box, snap, view, state) {
    var legal = view.legal || [];
    var first = legal.indexOf("first_draw") >= 0;
    if (!first && legal.indexOf("draw") < 0) return;
    var card = C.el("section", { class: "card sk-entry", id: "sk-entry" });
    var title = first ? t("sk.entry_first") : t("sk.entry") + " · " + t("sk.grave", { n: view.next_grave });
    card.appendChild(C.el("h2", { text: title }));
    var waiting = first ? firstDrawer(view) : [];
    if (first) {
      if (!state.drawer || waiting.indexOf(state.drawer) < 0) state.drawer = waiting[0];
      var who = C.el("div", { class: "sk-chips" });
      waiting.forEach(function (n) {
        who.appendChild(C.el("button", { type: "button", class: "sk-chip" + (state.drawer === n ? " on" : ""),
          dataset: { drawer: n }, onclick: function () { state.drawer = n; state.rerender(); } }, n));
      });
      card.appendChild(who);
    }
    var unseen = {};
    (view.unseen || []).forEach(function (c) { unseen[c] = true; });
    var ranks = C.el("div", { class: "sk-ranks", role: "group", "aria-label": t("sk.pick_rank") });
    RANKS.forEach(function (r) {
      var left = SUITS.some(function (s) { return unseen[r + s[0]]; });
      ranks.appendChild(C.el("button", { type: "button", class: "sk-rank role-" + role(r + "S") + (state.rank === r ? " on" : "") + (left ? "" : " out"),
        dataset: { rank: r }, onclick: function () { state.rank = state.rank === r ? null : r; state.rerender(); } }, r));
    });
    card.appendChild(ranks);
    var suits = C.el("div", { class: "sk-suits", role: "group", "aria-label": t("sk.pick_suit") });
    SUITS.forEach(function (s) {
      var token = state.rank ? state.rank + s[0] : null;
      suits.appendChild(C.el("button", { type: "button",
        class: "sk-suit " + (s[0] === "H" || s[0] === "D" ? "red" : "black") + (token && !unseen[token] ? " out" : ""),
        dataset: { suit: s[0] }, disabled: !state.rank,
        onclick: function () {
          if (!state.rank) return;
          var cardToken = state.rank + s[0];
          send(state, first ? { type: "first_draw", player: state.drawer, card: cardToken } : { type: "draw", card: cardToken });
        } }, C.el("span", { text: s[1] }), state.rank ? C.el("small", { text: state.rank }) : null));
    });
    card.appendChild(suits);
    card.appendChild(C.el("p", { class: "hint", text: t("sk.entry_hint") }));
    box.appendChild(card);
  }

  /* --- the choices the rules allow now -------------------------------------------------------- */

  function drawChoices(box, snap, view, state) {
    var legal = view.legal || [];
    var moves = legal.filter(function (m) { return m !== "draw" && m !== "first_draw"; });
    if (!moves.length) return;
    var card = C.el("section", { class: "card sk-choices", id: "sk-choices" });
    card.appendChild(C.el("h2", { text: t("sk.choices") }));
    if (view.pending) {
      card.appendChild(C.el("div", { class: "sk-pending" }, cardFace(view.pending, "big"),
        C.el("span", { text: t("sk.grave", { n: view.pending_grave }) })));
    }
    var chosen = state.grave;
    var chosenGrave = chosen ? (view.graves || [])[chosen - 1] : null;
    var buttons = C.el("div", { class: "sk-moves" });
    function move(id, label, onclick, tone) {
      buttons.appendChild(C.el("button", { type: "button", class: "btn " + (tone || ""), id: "sk-" + id,
        dataset: { move: id }, onclick: onclick }, label));
    }
    if (moves.indexOf("hold") >= 0) move("hold", t("sk.hold"), function () { send(state, { type: "hold" }); });
    if (moves.indexOf("bury") >= 0) {
      var buryGrave = view.pending ? view.pending_grave : chosenGrave && chosenGrave.open ? chosen : null;
      move("bury", buryGrave ? t("sk.bury_in", { n: buryGrave }) : t("sk.bury"), function () {
        send(state, { type: "bury", grave: view.pending ? null : buryGrave });
      }, "btn-primary");
    }
    var victimGrave = chosenGrave && chosenGrave.victims.length ? chosen : null;
    if (moves.indexOf("inform") >= 0) {
      move("inform", t("sk.inform") + (victimGrave ? " " + t("sk.on_grave", { n: victimGrave }) : ""), function () {
        state.picking = state.picking === "inform" ? null : "inform"; state.rerender();
      }, "btn-claim");
    }
    if (moves.indexOf("discredit") >= 0) {
      move("discredit", t("sk.discredit") + (victimGrave ? " " + t("sk.on_grave", { n: victimGrave }) : ""), function () {
        send(state, { type: "discredit", grave: victimGrave });
      });
    }
    if (moves.indexOf("end_turn") >= 0) move("end_turn", t("sk.end_turn"), function () { send(state, { type: "end_turn" }); }, "btn-primary sk-end");
    card.appendChild(buttons);
    if (state.picking === "inform" && moves.indexOf("inform") >= 0) {
      var targets = C.el("div", { class: "sk-chips sk-targets", id: "sk-targets" });
      (view.players || []).forEach(function (p) {
        if (p.arrested || p.current) return;
        targets.appendChild(C.el("button", { type: "button", class: "sk-chip", dataset: { target: p.name },
          onclick: function () { send(state, { type: "inform", target: p.name, grave: victimGrave }); } }, p.name));
      });
      card.appendChild(C.el("p", { class: "sk-ask", text: t("sk.target") }));
      card.appendChild(targets);
    }
    if (moves.some(function (m) { return m === "inform" || m === "discredit" || (m === "bury" && !view.pending); })) {
      card.appendChild(C.el("p", { class: "hint", text: t("sk.choose_grave") }));
    }
    box.appendChild(card);
  }

  /* The cards drawn for who goes first, round by round (a tie for the top draws again). */
  function drawFirstDraws(box, view) {
    var rounds = view.first_player_draws || [];
    if (!rounds.length || view.phase !== "choosing" && view.turn_number > 1) return;
    var card = C.el("section", { class: "card", id: "sk-first" }, C.el("h2", { text: t("sk.first_title") }));
    rounds.forEach(function (round, i) {
      var row = C.el("div", { class: "sk-first-round" }, C.el("span", { class: "sk-label", text: t("sk.round", { n: i + 1 }) }));
      round.forEach(function (d) {
        row.appendChild(C.el("span", { class: "sk-first-draw", dataset: { player: d.player } }, C.el("b", { text: d.player }), cardFace(d.card, "small")));
      });
      card.appendChild(row);
    });
    box.appendChild(card);
  }

  /* --- the killers ------------------------------------------------------------------------------ */

  function drawPlayers(box, snap, view) {
    var card = C.el("section", { class: "card", id: "sk-players" });
    card.appendChild(C.el("h2", { text: t("sk.players") }));
    var list = C.el("div", { class: "sk-killers" });
    (view.players || []).forEach(function (p, i) {
      var dots = C.el("span", { class: "sk-clues", "aria-label": t("sk.clues", { n: p.clues }), title: t("sk.clues", { n: p.clues }) });
      for (var k = 0; k < CLUES; k++) dots.appendChild(C.el("i", { class: k < p.clues ? "on" : "" }));
      var held = C.el("span", { class: "sk-held" });
      p.held.forEach(function (c) { held.appendChild(cardFace(c, "small")); });
      var row = C.el("div", { class: "sk-killer" + (p.current ? " current" : "") + (p.arrested ? " arrested" : "") + (view.winner === i ? " winner" : ""),
        dataset: { player: p.name, clues: String(p.clues) } },
        C.el("div", { class: "sk-killer-head" },
          C.el("strong", { text: p.name }),
          p.arrested ? C.el("span", { class: "badge badge-quit", text: t("sk.arrested") }) : null,
          p.current ? C.el("span", { class: "badge badge-turn", text: t("sk.on_turn") }) : null,
          view.winner === i ? C.el("span", { class: "badge badge-win", text: "★ " + t("sk.winner_badge") }) : null),
        C.el("div", { class: "sk-killer-row" }, dots, C.el("b", { class: "sk-clue-count", text: String(p.clues) }),
          C.el("span", { class: "sk-police", text: t("sk.police", { n: p.police }) })),
        p.held.length ? C.el("div", { class: "sk-killer-row" }, C.el("span", { class: "sk-label", text: t("sk.held") }), held) : null);
      list.appendChild(row);
    });
    card.appendChild(list);
    box.appendChild(card);
  }

  var renderer = {
    title: "Serial Killer",

    /* A refusal's details as its sentences show them: cards with suit symbols, roles worded. */
    wordDetails: function (d) {
      var out = Object.assign({}, d);
      if (d.card) out.card = pretty(d.card);
      if (d.role) { out.role_a = t("sk.role_a." + d.role); out.role_no = t("sk.role_no." + d.role); }
      return out;
    },

    render: function (root, snap, ui) {
      ensureStyle();
      var view = snap.view || {};
      if (!view.graves) return;
      var state = root._serialkiller;
      if (!state || !root.contains(state.box)) {
        C.clear(root);
        state = root._serialkiller = { box: C.el("div", { class: "sk-page" }), rank: null, grave: null, picking: null, error: null, drawer: null };
        root.appendChild(state.box);
      }
      // a live update with nothing new is not drawn again: a tap landing while the page is
      // rebuilt would be lost
      var same = typeof snap.version === "number" && state.drawn === snap.version && state.drawnFor === ui;
      if (same && !state.force) return;
      state.drawn = snap.version;
      state.drawnFor = ui;
      state.force = false;
      state.rerender = function () { state.force = true; renderer.render(root, snap, ui); };
      var canEdit = !!(ui && ui.canEdit) && view.phase !== "over";
      if (state.events !== snap.events) { state.error = null; state.events = snap.events; }
      if (state.version !== snap.version) {
        // the table moved on (maybe from another phone or a button): choices made for the old
        // state no longer apply
        if (state.phase !== view.phase || state.turn !== view.turn_number) { state.picking = null; state.grave = null; }
        state.version = snap.version;
        state.phase = view.phase;
        state.turn = view.turn_number;
      }
      C.clear(state.box);
      if (state.error) state.box.appendChild(C.el("p", { class: "sk-error", id: "sk-error", role: "alert", text: t("sk.refused", { reason: state.error }) }));
      if (canEdit) {
        drawEntry(state.box, snap, view, state);
        drawChoices(state.box, snap, view, state);
      }
      drawFirstDraws(state.box, view);
      drawGraves(state.box, view, state, canEdit);
      drawPlayers(state.box, snap, view);
    },

    banner: function (snap) {
      var view = snap.view || {};
      var seat = view.turn;
      var colour = typeof seat === "number" ? C.ledColour(((snap.players || [])[seat] || {}).colour, seat) : null;
      var name = view.current || "";
      switch (view.phase) {
        case "choosing": return { text: t("sk.choosing"), sub: t("sk.choosing_sub"), tone: "info" };
        case "drawing": return { text: t("sk.drawing", { name: name, grave: view.next_grave }),
          sub: t("sk.drawing_sub", { n: view.turn_number, left: view.draws_left }) + (view.killed_this_turn ? " · " + t("sk.killed") : ""), tone: "turn", colour: colour };
        case "deciding": return { text: t("sk.deciding", { name: name, card: pretty(view.pending) }), sub: t("sk.deciding_sub"), tone: "alert", colour: colour };
        case "ending": return { text: t("sk.ending", { name: name }), sub: t("sk.ending_sub") + " · " + t(view.killed_this_turn ? "sk.killed" : "sk.clue_due"), tone: "turn", colour: colour };
        case "over": return { text: t("sk.winner", { name: view.winner_name }),
          sub: t("sk.winner_sub", { n: (view.arrests || []).length, turns: view.turn_number }), tone: "win",
          colour: typeof view.winner === "number" ? C.ledColour(((snap.players || [])[view.winner] || {}).colour, view.winner) : null };
        default: return { text: snap.title || "Serial Killer", tone: "info" };
      }
    },

    badges: function (snap, index) {
      var p = ((snap.view || {}).players || [])[index];
      if (!p) return [];
      var out = [{ text: t("sk.clues", { n: p.clues }), tone: p.clues <= 2 ? "quit" : "info" }];
      if (p.arrested) out.push({ text: t("sk.arrested"), tone: "quit" });
      if ((snap.view || {}).winner === index) out.push({ text: "★ " + t("sk.winner_badge"), tone: "win" });
      return out;
    },

    onTurn: function (snap, index) {
      var view = snap.view || {};
      return view.phase !== "over" && view.turn === index;
    },

    controls: function () { return []; },

    players: { min: 2, max: 4 },

    /* Who goes first: drawn for at the table (high card, entered as first draws) or named. */
    setupFields: function (box, ctx) {
      var first = C.el("select", { id: "sk-first" });
      function refresh() {
        var keep = first.value;
        C.clear(first);
        first.appendChild(C.el("option", { value: "", text: t("sk.first_draw") }));
        ctx.names().forEach(function (name, i) {
          first.appendChild(C.el("option", { value: String(i), text: name || C.t("control.player_n", { n: i + 1 }) }));
        });
        if (keep && Number(keep) < first.options.length - 1) first.value = keep;
      }
      ctx.changed = refresh;
      refresh();
      box.appendChild(C.el("label", { for: "sk-first", text: C.t("control.first") }));
      box.appendChild(first);
    },

    readSetup: function (box, names) {
      var first = box.querySelector("#sk-first");
      var value = first ? first.value : "";
      return { players: names, first: value === "" ? null : Number(value) };
    },

    describe: function (event) {
      if (!event) return C.t("history.start");
      var values = {};
      Object.keys(event).forEach(function (k) { values[k] = event[k]; });
      if (event.card) values.card = pretty(event.card);
      var text = t("sk.event." + event.type, values);
      if (event.grave) text += " · " + t("sk.grave", { n: event.grave });
      return text;
    }
  };
  C.games.serialkiller = renderer;
})();
