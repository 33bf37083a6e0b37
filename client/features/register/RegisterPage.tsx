import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES, PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';

export function RegisterPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', email: '', phone: '', password: '', confirm: '' });
  const [localError, setLocalError] = useState<string | null>(null);
  const register = trpc.auth.register.useMutation({
    onSuccess: ({ token, user }) => {
      saveSession(token, user);
      navigate('/order', { replace: true });
    },
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    setLocalError(null);
    if (form.password.trim().length < PASSWORD_MIN_LENGTH) return setLocalError(MESSAGES.passwordTooShort);
    if (form.password !== form.confirm) return setLocalError(MESSAGES.passwordsDoNotMatch);
    register.mutate({ name: form.name, email: form.email, phone: form.phone, password: form.password });
  }

  const error =
    localError ?? (register.error ? errorMessage(register.error, 'Could not create your account.') : null);
  return (
    <Page title="Create your account" subtitle="Track your sand orders and payments in one place.">
      <form className="card narrow" onSubmit={submit} noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <TextField label="Name" autoComplete="name" required value={form.name} onChange={set('name')} />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set('email')}
        />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="tel"
          placeholder="07XX..."
          value={form.phone}
          onChange={set('phone')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
          value={form.password}
          onChange={set('password')}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          required
          value={form.confirm}
          onChange={set('confirm')}
        />
        <div className="button-row">
          <button className="button" type="submit" disabled={register.isPending}>
            {register.isPending ? 'Creating account…' : 'Create account'}
          </button>
          <Link to="/login">I already have an account</Link>
        </div>
      </form>
    </Page>
  );
}
