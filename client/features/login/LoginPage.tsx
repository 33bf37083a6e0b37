import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES } from '../../../shared/constants';
import { homeForRole } from '../../../shared/roles';
import { dismissSessionExpiredNotice, hasSessionExpiredNotice, saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';

export function LoginPage() {
  const navigate = useNavigate();
  // Read once: the notice belongs to this visit of /login only.
  const [sessionExpired] = useState(hasSessionExpiredNotice);
  useEffect(() => dismissSessionExpiredNotice, []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = trpc.auth.login.useMutation({
    onSuccess: ({ token, user }) => {
      saveSession(token, user);
      navigate(homeForRole(user.role), { replace: true });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    login.mutate({ email, password });
  }

  return (
    <Page title="Sign in">
      <form className="card narrow" onSubmit={submit} noValidate>
        {login.error ? (
          <Alert>{errorMessage(login.error, MESSAGES.invalidLogin)}</Alert>
        ) : sessionExpired ? (
          <Alert tone="info">{MESSAGES.sessionExpired}</Alert>
        ) : null}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="button-row">
          <button className="button" type="submit" disabled={login.isPending}>
            {login.isPending ? 'Signing in…' : 'Sign in'}
          </button>
          <Link to="/register">Create an account</Link>
        </div>
      </form>
    </Page>
  );
}
