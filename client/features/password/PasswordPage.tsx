import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { homeForRole } from '../../../shared/roles';
import { saveSession, useSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, FormAnswer, FormStatus, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { NewPasswordFields } from './NewPasswordFields';
import { newPasswordProblem } from './new-password';

/**
 * Every role: change your own password (POST /api/auth/password). Every other session is signed out; this
 * device keeps going with the fresh session the answer carries. After an ADMIN's one-time password this is
 * the only screen that works until a new password is chosen.
 */
export function PasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const me = trpc.auth.me.useQuery(undefined, { enabled: Boolean(session) });
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // Each submit's answer (the check, the refusal or the success) comes into view and takes the focus.
  const [answered, setAnswered] = useState(0);
  const answer = () => setAnswered((n) => n + 1);
  const change = trpc.auth.changePassword.useMutation({
    onSuccess: ({ token, user }) => {
      saveSession(token, user);
      setDone(true);
      setCurrent('');
      setNext('');
      setConfirm('');
      answer();
    },
    onError: (e) => {
      setProblem(errorMessage(e, t('password.failed')));
      answer();
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const invalid = newPasswordProblem(next, confirm);
    if (invalid) {
      setProblem(invalid);
      return answer();
    }
    setProblem(null);
    change.mutate({ currentPassword: current, newPassword: next });
  }

  const mustChange = me.data?.mustChangePassword === true;
  return (
    <Page title={t('password.title')}>
      <form className="card narrow" onSubmit={submit} noValidate>
        {mustChange && !done ? <Alert tone="warning">{t('password.mustChange')}</Alert> : null}
        <FormStatus message={problem ? { tone: 'error', text: problem, seq: answered } : null} />
        {done ? (
          <FormAnswer seq={answered}>
            <Alert tone="success">
              {t('password.changed')}{' '}
              {session ? (
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={() => navigate(homeForRole(session.role))}
                >
                  {t('password.continue')}
                </button>
              ) : null}
            </Alert>
          </FormAnswer>
        ) : null}
        <TextField
          label={t('password.current')}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <NewPasswordFields next={next} confirm={confirm} onNext={setNext} onConfirm={setConfirm} />
        <p className="muted">{t('password.othersSignedOut')}</p>
        <div className="button-row">
          <button className="button" type="submit" disabled={change.isPending}>
            {change.isPending ? t('password.saving') : t('password.save')}
          </button>
        </div>
      </form>
    </Page>
  );
}
