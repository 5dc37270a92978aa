/* The camera view: MJPEG while the page is visible; hidden pages drop the stream so the
   companion's threads and the phone's battery are not spent on a picture nobody sees. */
(function () {
  "use strict";
  var C = window.Companion;
  var img = document.getElementById("camera");
  if (!img) return;
  var note = document.getElementById("camera-note");
  function start() {
    note.hidden = true;
    img.src = img.dataset.src + "?t=" + Date.now();
  }
  function stop() {
    img.removeAttribute("src");
    img.src = "data:,";  // some browsers keep the connection until src changes
    note.textContent = C.t("camera.paused");
    note.hidden = false;
  }
  img.addEventListener("error", function () {
    if (document.hidden || img.src.indexOf("data:") === 0) return;
    note.textContent = C.t("camera.error");
    note.hidden = false;
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) stop(); else start();
  });
  window.addEventListener("pagehide", stop);
  start();
})();
