import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { MESSAGES } from '../../../shared/constants';
import { homeForRole } from '../../../shared/roles';
import { setScreenLanguage } from '../../i18n';
import { dismissSessionExpiredNotice, hasSessionExpiredNotice, saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';

export function LoginPage() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  // Read once: the notice belongs to this visit of /login only.
  const [sessionExpired] = useState(hasSessionExpiredNotice);
  useEffect(() => dismissSessionExpiredNotice, []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = trpc.auth.login.useMutation({
    onSuccess: ({ token, user }) => {
      saveSession(token, user);
      // The account's language follows the user to this device.
      if (user.language) void setScreenLanguage(user.language);
      navigate(homeForRole(user.role), { replace: true });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    login.mutate({ email, password });
  }

  return (
    <Page title={t('login.title')}>
      <form className="card narrow" onSubmit={submit} noValidate>
        {login.error ? (
          <Alert>{errorMessage(login.error, MESSAGES.invalidLogin)}</Alert>
        ) : sessionExpired ? (
          <Alert tone="info">{MESSAGES.sessionExpired}</Alert>
        ) : null}
        <TextField
          label={t('login.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="button-row">
          <button className="button" type="submit" disabled={login.isPending}>
            {login.isPending ? t('login.submitting') : t('login.submit')}
          </button>
          <Link to="/register">{t('login.createAccount')}</Link>
        </div>
      </form>
    </Page>
  );
}
