// @ts-check
/**
 * The upload page's browser script, served by us as /d/assets/drop-page.js and loaded with the
 * page's CSP nonce. Plain ES2017, no build step; it reads the drop from the embedded JSON, checks
 * the drop's rules before sending, uploads each chosen file with tus-js-client (served by us as
 * /d/assets/tus.min.js: 8 MiB chunks, retried with backoff, resumed after a network drop or a
 * page reload from the fingerprint it keeps in localStorage) and maps every intake error code to
 * a clear message. Several files per send: each becomes a submission with the same sender fields. It writes text only through textContent (the page
 * enforces Trusted Types).
 */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('drop-data').textContent);
  var drop = data.drop;
  var MB = 1024 * 1024;
  var FIELDS = ['senderName', 'senderEmail', 'message'];

  function $(id) {
    return document.getElementById(id);
  }
  var form = $('drop-form');
  var fields = $('fields');
  var input = $('file');
  var zone = $('dropzone');
  var statusBox = $('status');
  var submitButton = $('submit');
  var cancelButton = $('cancel');
  var progress = $('progress');
  var track = $('progress-track');
  var bar = $('progress-bar');
  var pct = $('progress-pct');
  var progressLabel = $('progress-label');
  var formArea = $('form-area');
  var success = $('success');
  var closedNotice = $('closed-notice');

  /** @type {File[]} */
  var chosen = [];
  /** The upload in flight (a tus.Upload), or null. */
  var request = null;
  var cancelled = false;
  var currentIndex = 0;
  var CHUNK = 8 * MB;
  var RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000];
  var NETWORK_TEXT = 'The connection was interrupted before the upload finished. It continues where it stopped as soon as the connection is back.';
  var closed = Boolean(data.closed);
  /** The drop's password once accepted; kept for this tab only (sessionStorage), sent with each upload. */
  var password = null;
  var PASSWORD_KEY = 'dropline:drop-password:' + drop.slug;

  var KIND_PLURAL = { image: 'images', video: 'videos', audio: 'audio files', document: 'documents' };
  var KIND_SINGULAR = { image: 'an image', video: 'a video', audio: 'an audio file', document: 'a document' };
  var EXT_KIND = {};
  function extensions(kind, list) {
    list.split(' ').forEach(function (ext) {
      EXT_KIND[ext] = kind;
    });
  }
  extensions('image', 'jpg jpeg jpe jfif png apng gif webp avif heic heif bmp tif tiff ico jxl jp2 psd cr2 cr3 nef arw dng orf rw2 raf');
  extensions('video', 'mp4 m4v mov webm mkv avi flv mpg mpeg 3gp ogv mts m2ts');
  extensions('audio', 'mp3 m4a aac wav flac oga opus aif aiff amr mid midi');
  extensions('document', 'pdf txt md csv tsv json xml html htm rtf doc docx xls xlsx ppt pptx odt ods odp epub zip rar 7z gz tar svg log');

  // ---- formatting -------------------------------------------------------------------------

  function formatBytes(n) {
    if (n < 1024) return n + ' B';
    var units = ['KB', 'MB', 'GB', 'TB'];
    var i = -1;
    do {
      n /= 1024;
      i++;
    } while (n >= 1024 && i < units.length - 1);
    return (n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '')) + ' ' + units[i];
  }

  function formatLimit(mb) {
    return mb >= 1024 && mb % 1024 === 0 ? mb / 1024 + ' GB' : mb + ' MB';
  }

  function extensionOf(name) {
    var m = /\.([a-z0-9]{1,8})$/i.exec(name || '');
    return m ? m[1].toLowerCase() : '';
  }

  function localizeTimes(root) {
    var times = root.querySelectorAll('time.local-time');
    for (var i = 0; i < times.length; i++) {
      var d = new Date(times[i].getAttribute('datetime'));
      if (!isNaN(d.getTime())) {
        try {
          times[i].textContent = d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
        } catch (e) {
          /* keep UTC text */
        }
      }
    }
  }

  // ---- the drop's rules, checked before sending ----------------------------------------

  /** The file's kind as the server will most likely sniff it, or null when unsure (the server decides). */
  function kindOf(file) {
    var ext = extensionOf(file.name);
    var type = (file.type || '').toLowerCase();
    if (ext === 'svg' || type === 'image/svg+xml') return 'document'; // SVG is text: no image magic bytes
    var top = type.split('/')[0];
    if (top === 'image' || top === 'video' || top === 'audio') return top;
    if (EXT_KIND[ext]) return EXT_KIND[ext];
    if (top === 'text' || type === 'application/pdf') return 'document';
    return null;
  }

  function fileProblem(file) {
    if (!file) return 'Choose a file to send.';
    if (file.size === 0) return '"' + file.name + '" is empty. Choose another file.';
    var kind = kindOf(file);
    if (drop.allowedKinds !== 'any' && kind && kind !== drop.allowedKinds) {
      return 'This drop accepts only ' + KIND_PLURAL[drop.allowedKinds] + ', and "' + file.name + '" looks like ' + KIND_SINGULAR[kind] + '. Choose another file.';
    }
    if (file.size > drop.maxFileSizeMB * MB) {
      return '"' + file.name + '" is ' + formatBytes(file.size) + ', over this drop\u2019s limit of ' + formatLimit(drop.maxFileSizeMB) + '. Choose a smaller file.';
    }
    return null;
  }

  function value(name) {
    return $(name).value.trim();
  }

  function fieldProblems() {
    var problems = [];
    var email = $('senderEmail');
    if (drop.requireSenderEmail && !value('senderEmail')) {
      problems.push(['senderEmail', 'Enter your email address: this drop requires it.']);
    } else if (value('senderEmail') && email.validity && email.validity.typeMismatch) {
      problems.push(['senderEmail', 'Enter a valid email address, like name@example.com.']);
    }
    if (drop.requireMessage && !value('message')) problems.push(['message', 'Write a message: this drop requires one.']);
    return problems;
  }

  // ---- messages ---------------------------------------------------------------------------

  /** kind: error, info, or sr (announced to screen readers only: the progress bar shows it). */
  function showStatus(kind, text) {
    statusBox.className = 'notice status ' + (kind === 'sr' ? 'visually-hidden' : kind);
    statusBox.textContent = text;
  }

  function clearStatus() {
    statusBox.className = 'notice status';
    statusBox.textContent = '';
  }

  function setFieldError(name, text) {
    $(name + '-error').textContent = text;
    if (name === 'file') zone.classList.add('invalid');
    $(name).setAttribute('aria-invalid', 'true');
  }

  function clearFieldErrors() {
    ['file'].concat(FIELDS).forEach(function (name) {
      var error = $(name + '-error');
      if (error) error.textContent = '';
      $(name).removeAttribute('aria-invalid');
    });
    zone.classList.remove('invalid');
  }

  function closeForm(reason) {
    closed = true;
    fields.disabled = true;
    submitButton.disabled = true;
    closedNotice.hidden = false;
    var strong = document.createElement('strong');
    var rest;
    if (reason === 'paused') {
      strong.textContent = 'This drop is paused.';
      rest = ' It isn\u2019t accepting files right now. Please try again later or contact the person who shared this link.';
    } else if (reason === 'expired') {
      strong.textContent = 'This drop has expired.';
      rest = ' It no longer accepts files.';
    } else if (reason === 'full') {
      strong.textContent = 'This drop is full.';
      rest = ' It has received all the files it takes.';
    } else {
      strong.textContent = 'This drop no longer exists.';
      rest = ' It may have been deleted by its owner. Ask the person who shared this link for a new one.';
    }
    closedNotice.textContent = '';
    closedNotice.appendChild(strong);
    closedNotice.appendChild(document.createTextNode(rest));
  }

  /** The intake's error codes (openapi.yaml createPublicSubmission) in words a sender can act on. */
  function errorMessage(status, error, retryAfter) {
    var code = error && error.code;
    var serverText = (error && error.message) || '';
    switch (code) {
      case 'not_found':
        return { text: 'This drop no longer exists, so the file was not sent.', close: 'not_found' };
      case 'drop_paused':
        return { text: 'This drop was paused by its owner and isn\u2019t accepting files right now, so the file was not sent. Please try again later.', close: 'paused' };
      case 'drop_expired':
        return { text: 'This drop has expired and no longer accepts files, so the file was not sent.', close: 'expired' };
      case 'validation_failed':
        return { text: 'Some details are missing or invalid. ' + (serverText ? 'The server said: ' + serverText : 'Please check the form and try again.') };
      case 'file_too_large':
        return { text: 'This file is too large for this drop. ' + (serverText || 'The limit is ' + formatLimit(drop.maxFileSizeMB) + '.') + ' Choose a smaller file.' };
      case 'drop_full':
        return { text: 'This drop is full (it has reached its limit of files or of total size), so the file was not sent. ' + serverText, close: 'full' };
      case 'password_required':
      case 'wrong_password':
        return { text: 'The drop\u2019s password has changed. Enter the new password and send again.', relock: true };
      case 'kind_not_allowed':
        return { text: 'This type of file isn\u2019t accepted here. ' + serverText };
      case 'unsupported_media_type':
        return { text: 'The file could not be sent in the expected format. Please reload the page and try again.' };
      case 'rate_limited': {
        var wait = Math.max(1, parseInt(retryAfter, 10) || 1);
        return { text: 'Too many uploads from your network in a short time. Please wait ' + wait + ' second' + (wait === 1 ? '' : 's') + ' and try again.' };
      }
    }
    if (status >= 500) return { text: 'Something went wrong on our side and the file was not saved. Please try again in a moment.' };
    return { text: 'The upload failed' + (serverText ? ': ' + serverText : ' (HTTP ' + status + ').') + ' Please try again.' };
  }

  var DETAIL_MESSAGES = {
    senderEmail: 'Check your email address.',
    senderName: 'Check your name (at most 200 characters).',
    message: 'Check your message (at most 5000 characters).',
    file: 'Choose a file to send.',
  };

  function markDetails(details) {
    if (!details || !details.forEach) return;
    details.forEach(function (d) {
      var name = String(d.path || '')
        .replace(/^body\//, '')
        .split('/')[0];
      if (!DETAIL_MESSAGES[name]) return;
      setFieldError(name, /required/.test(d.message || '') && name !== 'file' ? 'This drop requires it.' : DETAIL_MESSAGES[name]);
    });
  }

  // ---- choosing a file --------------------------------------------------------------------

  function choose(list) {
    chosen = Array.prototype.slice.call(list);
    clearFieldErrors();
    $('dz-empty').hidden = true;
    $('dz-file').hidden = false;
    zone.classList.add('has-file');
    var first = chosen[0];
    var total = chosen.reduce(function (sum, f) {
      return sum + f.size;
    }, 0);
    $('file-ext').textContent = chosen.length > 1 ? String(chosen.length) : (extensionOf(first.name) || 'file').slice(0, 4).toUpperCase();
    $('file-name').textContent = chosen.length > 1 ? chosen.length + ' files' : first.name;
    $('file-size').textContent = formatBytes(total);
    renderFileList();
    var problem = firstProblem();
    if (problem) {
      setFieldError('file', problem);
      showStatus('error', problem);
    } else {
      clearStatus();
    }
  }

  function firstProblem() {
    if (!chosen.length) return fileProblem(null);
    for (var i = 0; i < chosen.length; i++) {
      var problem = fileProblem(chosen[i]);
      if (problem) return problem;
    }
    return null;
  }

  /** One row per chosen file: its name, then its own progress or error while sending. */
  function renderFileList() {
    var list = $('file-list');
    list.textContent = '';
    list.hidden = chosen.length < 2;
    chosen.forEach(function (file, i) {
      var item = document.createElement('li');
      item.id = 'file-item-' + i;
      var name = document.createElement('span');
      name.className = 'fl-name';
      name.textContent = file.name + ' \u00b7 ' + formatBytes(file.size);
      var state = document.createElement('span');
      state.className = 'fl-state';
      state.id = 'file-state-' + i;
      item.appendChild(name);
      item.appendChild(state);
      list.appendChild(item);
    });
  }

  function setFileState(i, kind, text) {
    var state = $('file-state-' + i);
    if (!state) return;
    state.textContent = text;
    state.className = 'fl-state ' + kind;
  }

  function resetFile() {
    chosen = [];
    renderFileList();
    input.value = '';
    $('dz-empty').hidden = false;
    $('dz-file').hidden = true;
    zone.classList.remove('has-file');
  }

  input.addEventListener('change', function () {
    if (input.files && input.files.length) choose(input.files);
  });

  var dragDepth = 0;
  zone.addEventListener('dragenter', function (e) {
    e.preventDefault();
    if (closed || request) return;
    dragDepth++;
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragover', function (e) {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = closed || request ? 'none' : 'copy';
  });
  zone.addEventListener('dragleave', function () {
    dragDepth = Math.max(0, dragDepth - 1);
    if (!dragDepth) zone.classList.remove('dragging');
  });
  zone.addEventListener('drop', function (e) {
    e.preventDefault();
    e.stopPropagation();
    dragDepth = 0;
    zone.classList.remove('dragging');
    if (closed || request) return;
    var files = e.dataTransfer && e.dataTransfer.files;
    if (files && files.length) choose(files);
  });
  // A file dropped next to the zone must not make the browser leave the page and open it.
  window.addEventListener('dragover', function (e) {
    e.preventDefault();
    if (e.dataTransfer && !zone.contains(e.target)) e.dataTransfer.dropEffect = 'none';
  });
  window.addEventListener('drop', function (e) {
    e.preventDefault();
  });

  // ---- sending ------------------------------------------------------------------------------

  function setProgress(fraction) {
    var p = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    bar.style.width = p + '%';
    pct.textContent = p + '%';
    track.setAttribute('aria-valuenow', String(p));
  }

  function setBusy(busy) {
    fields.disabled = busy || closed;
    submitButton.disabled = busy || closed;
    submitButton.textContent = busy ? 'Sending\u2026' : 'Send file';
    cancelButton.hidden = !busy;
    progress.hidden = !busy;
  }

  function showSuccess(sent) {
    formArea.hidden = true;
    clearStatus();
    var what =
      sent.length === 1
        ? '"' + sent[0].name + '" (' + formatBytes(sent[0].size) + ') was'
        : sent.length +
          ' files (' +
          formatBytes(
            sent.reduce(function (n, f) {
              return n + f.size;
            }, 0),
          ) +
          ') were';
    $('success-text').textContent = what + ' delivered to ' + drop.name + '. You can close this page.';
    success.hidden = false;
    $('success-title').focus();
  }

  /** The envelope of a refused tus request, or null (network error, proxy page). */
  function errorOf(err) {
    var res = err && err.originalResponse;
    if (!res) return null;
    var json = null;
    try {
      json = JSON.parse(res.getBody());
    } catch (e) {
      /* not JSON */
    }
    return { status: res.getStatus(), error: json && json.error, retryAfter: res.getHeader('Retry-After') };
  }

  function metadataFor(file) {
    var meta = { filename: file.name, filetype: file.type || 'application/octet-stream' };
    FIELDS.forEach(function (name) {
      if (value(name)) meta[name] = value(name);
    });
    return meta;
  }

  /** Sends chosen[i] with tus, resuming a previous attempt of the same file if one is stored. */
  function sendOne(i, done) {
    var file = chosen[i];
    var upload = new window.tus.Upload(file, {
      endpoint: data.tusUrl,
      chunkSize: CHUNK,
      retryDelays: RETRY_DELAYS,
      metadata: metadataFor(file),
      headers: password ? { 'Drop-Password': password } : {},
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: function (sentBytes, total) {
        if (statusBox.classList.contains('error')) {
          showStatus('sr', 'Uploading again\u2026');
          progressLabel.textContent = 'Uploading\u2026';
        }
        var fraction = total > 0 ? sentBytes / total : 1;
        setFileState(i, 'busy', Math.floor(fraction * 100) + '%');
        setProgress(overall(i, sentBytes));
      },
      onSuccess: function () {
        setFileState(i, 'ok', 'Sent');
        done(null);
      },
      onError: function (err) {
        done(err);
      },
      // Retry what may pass later (network, 5xx, 409 offset, 429); a refusal (4xx) is final.
      onShouldRetry: function (err) {
        var status = err && err.originalResponse ? err.originalResponse.getStatus() : 0;
        var code = (errorOf(err) || {}).error;
        var full = code && code.code === 'drop_full'; // a 409 that will not pass later
        var retry = !cancelled && !full && (status === 0 || status === 409 || status === 423 || status === 429 || status >= 500);
        if (retry) {
          var refused = errorOf(err);
          var message = refused && refused.status ? errorMessage(refused.status, refused.error, refused.retryAfter).text : NETWORK_TEXT;
          showStatus('error', message);
          progressLabel.textContent = 'Retrying\u2026';
          setFileState(i, 'busy', 'Retrying\u2026');
        }
        return retry;
      },
    });
    request = upload;
    currentIndex = i;
    setFileState(i, 'busy', 'Starting\u2026');
    upload.findPreviousUploads().then(
      function (previous) {
        if (previous.length) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      },
      function () {
        upload.start();
      },
    );
  }

  function overall(i, sentBytes) {
    var total = 0;
    var sent = 0;
    chosen.forEach(function (f, j) {
      total += f.size;
      if (j < i) sent += f.size;
    });
    return total > 0 ? (sent + sentBytes) / total : 1;
  }

  function finish() {
    request = null;
    setBusy(false);
  }

  function fail(i, err) {
    finish();
    if (cancelled) {
      showStatus('info', 'Upload cancelled. ' + (i > 0 ? i + ' of ' + chosen.length + ' files were sent before.' : 'The file was not sent.'));
      submitButton.focus();
      return;
    }
    var refused = errorOf(err);
    if (!refused) {
      setFileState(i, 'error', 'Interrupted');
      showStatus(
        'error',
        'The connection was interrupted before the upload finished, so the file was not sent. Check your connection and try again: the upload will continue where it stopped.',
      );
      return;
    }
    var error = refused.error;
    var message = errorMessage(refused.status, error, refused.retryAfter);
    setFileState(i, 'error', message.text);
    if (message.close) closeForm(message.close);
    if (message.relock) lock('');
    if (error && error.code === 'validation_failed') markDetails(error.details);
    if (error && (error.code === 'kind_not_allowed' || error.code === 'file_too_large')) setFieldError('file', message.text);
    var prefix = chosen.length > 1 ? '"' + chosen[i].name + '": ' : '';
    showStatus('error', prefix + message.text);
  }

  function send() {
    cancelled = false;
    setProgress(0);
    progressLabel.textContent = 'Uploading\u2026';
    setBusy(true);
    cancelButton.focus();
    showStatus('sr', 'Uploading ' + (chosen.length === 1 ? '"' + chosen[0].name + '"' : chosen.length + ' files') + '\u2026');
    var sent = [];
    (function next(i) {
      if (i === chosen.length) {
        setProgress(1);
        finish();
        showSuccess(sent);
        return;
      }
      sendOne(i, function (err) {
        if (err) return fail(i, err);
        sent.push(chosen[i]);
        next(i + 1);
      });
    })(0);
  }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    if (request || closed) return;
    clearFieldErrors();
    var problems = [];
    var filePrblm = firstProblem();
    if (filePrblm) {
      setFieldError('file', filePrblm);
      problems.push(['file', filePrblm]);
    }
    fieldProblems().forEach(function (p) {
      setFieldError(p[0], p[1]);
      problems.push(p);
    });
    if (problems.length) {
      showStatus(
        'error',
        problems
          .map(function (p) {
            return p[1];
          })
          .join(' '),
      );
      $(problems[0][0]).focus();
      return;
    }
    send();
  });

  cancelButton.addEventListener('click', function () {
    if (!request) return;
    cancelled = true;
    var upload = request;
    // Cancel means cancel: the partial upload is terminated on the server (tus DELETE).
    upload.abort(true).then(
      function () {
        fail(currentIndex, null);
      },
      function () {
        fail(currentIndex, null);
      },
    );
  });

  $('again').addEventListener('click', function () {
    resetFile();
    $('message').value = '';
    clearFieldErrors();
    clearStatus();
    success.hidden = true;
    formArea.hidden = false;
    progress.hidden = true;
    input.focus();
  });

  window.addEventListener('beforeunload', function (e) {
    if (request) {
      e.preventDefault();
      e.returnValue = '';
    }
  });

  // ---- the password of a protected drop ---------------------------------------------------

  var passwordForm = $('password-form');
  var passwordInput = $('drop-password');

  function lock(text) {
    password = null;
    try {
      window.sessionStorage.removeItem(PASSWORD_KEY);
    } catch (e) {
      /* storage off: nothing kept */
    }
    formArea.hidden = true;
    passwordForm.hidden = false;
    $('drop-password-error').textContent = text;
    if (text) passwordInput.setAttribute('aria-invalid', 'true');
    passwordInput.focus();
  }

  function li(text) {
    var item = document.createElement('li');
    item.textContent = text;
    return item;
  }

  /** The drop as the password revealed it: its description, rules and checks. */
  function applyDrop(view) {
    drop = view;
    data.drop = view;
    var head = $('drop-title').parentNode;
    if (view.description) {
      var desc = document.createElement('p');
      desc.className = 'desc';
      desc.id = 'drop-description';
      desc.textContent = view.description;
      head.insertBefore(desc, $('rules'));
    }
    var rules = $('rules');
    rules.textContent = '';
    [
      { any: 'Any type of file', image: 'Images only', video: 'Videos only', audio: 'Audio only', document: 'Documents only' }[view.allowedKinds],
      view.allowedExtensions
        ? 'Only ' +
          view.allowedExtensions
            .map(function (e) {
              return '.' + e;
            })
            .join(', ') +
          ' files'
        : null,
      'Up to ' + formatLimit(view.maxFileSizeMB),
      view.maxSubmissions !== null ? 'At most ' + view.maxSubmissions + ' file' + (view.maxSubmissions === 1 ? '' : 's') + ' in all' : null,
      view.maxTotalMB !== null ? 'Up to ' + formatLimit(view.maxTotalMB) + ' in all' : null,
      view.requireSenderEmail ? 'Email required' : null,
      view.requireMessage ? 'Message required' : null,
      'Password protected',
    ].forEach(function (text) {
      if (text) rules.appendChild(li(text));
    });
    if (view.expiresAt) rules.appendChild(li('Open until ' + new Date(view.expiresAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })));
    if (view.acceptLateUntil)
      rules.appendChild(li('Late files accepted until ' + new Date(view.acceptLateUntil).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })));
    $('dz-hint').textContent = 'Up to ' + formatLimit(view.maxFileSizeMB);
    if (view.requireSenderEmail) $('senderEmail').setAttribute('aria-required', 'true');
    if (view.requireMessage) $('message').setAttribute('aria-required', 'true');
    if (!view.acceptingSubmissions) closeForm(view.expiresAt && new Date(view.acceptLateUntil || view.expiresAt).getTime() <= Date.now() ? 'expired' : 'full');
  }

  /** Tries a password on the drop: opens the form with it, or says why not. */
  function unlock(candidate, quiet) {
    var button = $('unlock');
    button.disabled = true;
    return fetch(data.publicUrl, { headers: { 'Drop-Password': candidate } })
      .then(function (res) {
        return res.json().then(function (body) {
          if (res.status === 200) {
            password = candidate;
            try {
              window.sessionStorage.setItem(PASSWORD_KEY, candidate);
            } catch (e) {
              /* storage off: asked again next time */
            }
            passwordForm.hidden = true;
            formArea.hidden = false;
            clearStatus();
            applyDrop(body.drop);
            return;
          }
          if (quiet) return lock('');
          var code = body && body.error && body.error.code;
          if (code === 'rate_limited') {
            var wait = Math.max(1, parseInt(res.headers.get('Retry-After'), 10) || 1);
            return lock('Too many wrong passwords. Please wait ' + wait + ' second' + (wait === 1 ? '' : 's') + ' and try again.');
          }
          if (code === 'wrong_password') return lock('That password is not right. Check it and try again.');
          if (code === 'password_required') return lock('Enter the password to open this drop.');
          return lock('The drop could not be opened (HTTP ' + res.status + '). Please try again.');
        });
      })
      .catch(function () {
        lock('The connection failed. Check it and try again.');
      })
      .then(function () {
        button.disabled = false;
      });
  }

  if (data.locked) {
    passwordForm.addEventListener('submit', function (e) {
      e.preventDefault();
      passwordInput.removeAttribute('aria-invalid');
      var candidate = passwordInput.value;
      if (!candidate) return lock('Enter the password to open this drop.');
      unlock(candidate, false);
    });
    var kept = null;
    try {
      kept = window.sessionStorage.getItem(PASSWORD_KEY);
    } catch (e) {
      /* storage off */
    }
    if (kept) unlock(kept, true);
  }

  // The drop closes at its expiry (or the end of its grace) even while this page stays open (timed by the server's clock).
  var closesAt = drop.acceptLateUntil || data.expiresAt;
  if (!closed && closesAt) {
    var left = new Date(closesAt).getTime() - new Date(data.now).getTime();
    if (left < 2147483647)
      setTimeout(
        function () {
          if (!request) closeForm('expired');
        },
        Math.max(0, left),
      );
  }

  localizeTimes(document);
})();
