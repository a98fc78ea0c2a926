// voice-alert panel: the only script besides htmx. Copy buttons, confirmations, and the
// CSRF header for htmx requests. No inline script is allowed by the page's CSP.
(function () {
  'use strict';

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Plain HTTP on a LAN address is not a secure context: fall back to a selection.
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    try {
      document.execCommand('copy');
    } finally {
      document.body.removeChild(area);
    }
    return Promise.resolve();
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest('[data-copy]');
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    var label = button.textContent;
    copyText(source.textContent || source.value || '').then(function () {
      button.textContent = button.getAttribute('data-copied') || label;
      var status = document.getElementById('copy-status');
      if (status) status.textContent = button.textContent;
      setTimeout(function () {
        button.textContent = label;
      }, 2000);
    });
  });

  document.addEventListener('submit', function (event) {
    var message = event.target.getAttribute('data-confirm');
    if (message && !window.confirm(message)) event.preventDefault();
  });

  // htmx requests that change state carry the session's CSRF token as a header too.
  document.addEventListener('htmx:config:request', function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    var ctx = event.detail && event.detail.ctx;
    if (meta && ctx && ctx.request && ctx.request.headers) ctx.request.headers['X-CSRF-Token'] = meta.content;
  });
})();
