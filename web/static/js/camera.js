/* The camera view: MJPEG while the page is visible; hidden pages drop the stream so the
   companion's threads and the phone's battery are not spent on a picture nobody sees.
   The stream ends when the camera goes away; the page looks at the camera's status now and
   then and opens it again when the camera is back. */
(function () {
  "use strict";
  var C = window.Companion;
  var img = document.getElementById("camera");
  if (!img) return;
  var note = document.getElementById("camera-note");
  var watching = false, timer = null, lastStatus = null;
  function say(text) { note.textContent = text; note.hidden = !text; }
  function start() {
    say("");
    watching = true;
    img.src = img.dataset.src + "?t=" + Date.now();
  }
  function stop(reason) {
    watching = false;
    img.removeAttribute("src");
    img.src = "data:,";  // some browsers keep the connection until src changes
    say(reason);
  }
  function check() {
    if (document.hidden) return;
    C.getJSON("/api/state").then(function (snap) {
      var status = (snap.camera || {}).status || "none";
      if (status === "none") stop(C.t("camera.none"));
      else if (status === "lost") say(C.t("camera.lost"));
      else if (!watching || lastStatus !== "ok") start();
      lastStatus = status;
    }, function () {});
  }
  img.addEventListener("error", function () {
    if (document.hidden || img.src.indexOf("data:") === 0) return;
    watching = false;
    say(C.t("camera.error"));
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { stop(C.t("camera.paused")); } else { start(); }
  });
  window.addEventListener("pagehide", function () { stop(""); });
  start();
  lastStatus = "ok";
  timer = setInterval(check, 5000);
})();
