/* Runs last: every part has registered with window.pinupBoard. */
window.pinupBoard._start();
