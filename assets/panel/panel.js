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

  // The browser words its own form-validation bubbles in its own language, not the page's: a
  // Turkish panel in an English Chromium said "Please fill out this field." (issue 49). For the
  // languages the browser may not match, the page's language says it instead; English pages keep
  // the browser's words. Keyed by <html lang> (views/layout.tsx).
  var VALIDATION = {
    tr: {
      valueMissing: 'Lütfen bu alanı doldurun.',
      typeMismatch: { email: 'Geçerli bir e-posta adresi girin.', url: 'Geçerli bir adres girin (http:// veya https:// ile başlayan).', other: 'Geçerli bir değer girin.' },
      badInput: 'Geçerli bir değer girin.',
      patternMismatch: 'İstenen biçimde girin.',
      tooLong: 'En fazla {n} karakter girin.',
      tooShort: 'En az {n} karakter girin.',
      rangeUnderflow: 'En az {n} olmalı.',
      rangeOverflow: 'En fazla {n} olmalı.',
      stepMismatch: 'Geçerli bir değer girin.',
    },
  };

  function validationMessage(words, el) {
    var v = el.validity;
    if (v.valueMissing) return words.valueMissing;
    if (v.typeMismatch) return words.typeMismatch[el.type] || words.typeMismatch.other;
    if (v.badInput) return words.badInput;
    if (v.patternMismatch) return words.patternMismatch;
    if (v.tooLong) return words.tooLong.replace('{n}', el.maxLength);
    if (v.tooShort) return words.tooShort.replace('{n}', el.minLength);
    if (v.rangeUnderflow) return words.rangeUnderflow.replace('{n}', el.min);
    if (v.rangeOverflow) return words.rangeOverflow.replace('{n}', el.max);
    if (v.stepMismatch) return words.stepMismatch;
    return '';
  }

  // `invalid` does not bubble: listened to while capturing.
  document.addEventListener(
    'invalid',
    function (event) {
      var words = VALIDATION[document.documentElement.lang];
      var el = event.target;
      if (!words || !el.setCustomValidity) return;
      el.setCustomValidity(''); // read the field's own state, not our last message
      if (!el.validity.valid) el.setCustomValidity(validationMessage(words, el));
    },
    true,
  );
  // Typing clears our message: the field is judged afresh at the next submit.
  document.addEventListener('input', function (event) {
    if (event.target.setCustomValidity) event.target.setCustomValidity('');
  });

  // htmx requests that change state carry the session's CSRF token as a header too.
  document.addEventListener('htmx:config:request', function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    var ctx = event.detail && event.detail.ctx;
    if (meta && ctx && ctx.request && ctx.request.headers) ctx.request.headers['X-CSRF-Token'] = meta.content;
  });
})();
