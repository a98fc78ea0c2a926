import type { Messages } from '.';

/** The Administrators page's words (docs/panel.md "Administrators, owners and passwords"). */
const en = {
  title: 'Administrators',
  intro: 'Administrators log in with a user name and manage every account. On the command line: voice-alert admin create|list|passwd.',
  ownHint: 'Your own password is changed on the Password page, with your current one.',
  username: 'User name',
  usernameHint: '3–64 letters, digits, and . _ @ -',
  password: 'Password',
  you: 'you',
  none: 'No administrators.',
  create: 'New administrator',
  created: 'Administrator {login} can now log in.',
  invalidUsername: 'A user name is 3–64 letters, digits, and . _ @ -',
  confirmReset: 'Reset the password of administrator {login}? Their current password stops working and their sessions end at once; they can log in only with the new password you pass on.',
};

const tr: typeof en = {
  title: 'Yöneticiler',
  intro: 'Yöneticiler bir kullanıcı adıyla girer ve tüm hesapları yönetir. Komut satırında: voice-alert admin create|list|passwd.',
  ownHint: 'Kendi parolanızı Parola sayfasında, geçerli parolanızla değiştirirsiniz.',
  username: 'Kullanıcı adı',
  usernameHint: '3–64 harf, rakam ve . _ @ -',
  password: 'Parola',
  you: 'siz',
  none: 'Yönetici yok.',
  create: 'Yeni yönetici',
  created: '{login} yöneticisi artık giriş yapabilir.',
  invalidUsername: 'Kullanıcı adı 3–64 harf, rakam ve . _ @ - olmalıdır',
  confirmReset: '{login} yöneticisinin parolası sıfırlansın mı? Geçerli parolası ve oturumları hemen geçersiz olur; yalnızca sizin ileteceğiniz yeni parolayla girebilir.',
};

export type AdminsWords = typeof en;

/** By the page's language (its `locale`), as scheduleWords. */
export function adminsWords(t: Messages): AdminsWords {
  return t.locale.startsWith('tr') ? tr : en;
}
