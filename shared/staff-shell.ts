/**
 * A staff screen's top (the site header, the screen's title and subtitle) in the HTML the server sends
 * for its route, so a cold load on a slow phone shows it with the HTML instead of after the app code has
 * downloaded and run (issue 28: /driver and /fuel painted their subtitle, the largest text, at 2.0–2.3 s
 * on Slow 4G with a 4× slower CPU).
 *
 * Who is signed in, in which language and under which name is in localStorage, which the server cannot
 * see. So the server puts every variant of the route's top into the page as a JSON element (rendered by
 * the client's own components: client/staff-shell.tsx) and a small inline script right after the empty
 * root picks the one for the stored role and language and writes it in. The app renders over it, as over
 * a kept screen (client/main.tsx); until then it is inert and marked busy. The script is the same text on
 * every page, so the content security policy allows it by its hash (server/app.ts).
 */

/** Set on the root while it shows the server's top of the screen. */
export const SHELL_ATTRIBUTE = 'data-shell';
/** The JSON element holding the route's variants. */
export const SHELL_DATA_ID = 'mchanga-shell';
/** The `role` of a variant for a device without a session (the public screens: /login, /register, …). */
export const GUEST = 'guest';
/** Where a variant has the user's name (escaped by the script). */
export const SHELL_NAME = '{{name}}';

/** What the server knows that a screen's top shows (the build's server render takes it at start). */
export interface ShellFacts {
  /** How long the action log is kept (ACTIVITY_RETENTION_DAYS): the activity tab's line says so. */
  activityRetentionDays: number;
}

/** The top of one staff screen for one role, in each language. */
export interface ShellVariant {
  role: string;
  /**
   * true: only for an account linked to a driver profile and with a name (the driver's screen greets
   * them by it); false: only for one that is not linked; absent: either.
   */
  linked?: boolean;
  en: string;
  sw: string;
}

/**
 * The inline script (plain ES5). Picks the variant of the stored role, or GUEST's on a device without a
 * session; writes nothing for a session that may only open the password screen, a role without a
 * variant, or a root that already holds something.
 */
export function staffShellScript(): string {
  return `(function(){try{var d=document.getElementById('${SHELL_DATA_ID}'),root=document.getElementById('root'),s=window.localStorage;if(!d||!root||root.firstChild)return;var t=s.getItem('token'),r=t?s.getItem('role'):'${GUEST}',m=s.getItem('mustChangePassword');if(!r||(t&&m&&m!=='false'))return;var l=s.getItem('mchanga.language')==='sw'?'sw':'en',n=s.getItem('userName')||'',k=!!s.getItem('driverId'),v=JSON.parse(d.textContent);for(var i=0;i<v.length;i++){var e=v[i];if(e.role!==r||(e.linked===true&&(!k||!n))||(e.linked===false&&k))continue;root.innerHTML=e[l].split('${SHELL_NAME}').join(n.replace(/[&<>"']/g,function(c){return'&#'+c.charCodeAt(0)+';'}));root.setAttribute('${SHELL_ATTRIBUTE}','');root.setAttribute('inert','');root.setAttribute('aria-busy','true');return}}catch(x){}})();`;
}
