import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { MESSAGES } from '../../../shared/constants';
import { errorMessage, trpc } from '../../trpc';
import { Alert, FormAnswer, FormStatus, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { NewPasswordFields } from './NewPasswordFields';
import { newPasswordProblem } from './new-password';

/** The e-mailed link (its token in the address) or the code from the e-mail or SMS, and a new password. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const options = trpc.auth.passwordOptions.useQuery();
  const [params] = useSearchParams();
  const [token, setToken] = useState(params.get('token') ?? '');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Each submit's check or refusal comes into view and takes the focus.
  const [answered, setAnswered] = useState(0);
  const reset = trpc.auth.confirmPasswordReset.useMutation({
    onError: (e) => {
      setProblem(errorMessage(e, MESSAGES.resetLinkInvalid));
      setAnswered((n) => n + 1);
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = newPasswordProblem(next, confirm);
    if (invalid) {
      setProblem(invalid);
      return setAnswered((n) => n + 1);
    }
    setProblem(null);
    reset.mutate({ token: token.trim(), newPassword: next });
  }

  if (reset.isSuccess)
    return (
      <Page title={t('reset.title')}>
        <div className="card narrow">
          <FormAnswer seq={1}>
            <Alert tone="success">{t('reset.done')}</Alert>
          </FormAnswer>
          <Link className="button" to="/login">
            {t('reset.signIn')}
          </Link>
        </div>
      </Page>
    );

  return (
    <Page title={t('reset.title')}>
      <form className="card narrow" onSubmit={submit} noValidate>
        <FormStatus message={problem ? { tone: 'error', text: problem, seq: answered } : null} />
        <TextField
          label={t(options.data?.smsReset ? 'reset.codeOrSms' : 'reset.code')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <NewPasswordFields next={next} confirm={confirm} onNext={setNext} onConfirm={setConfirm} />
        <div className="button-row">
          <button className="button" type="submit" disabled={reset.isPending}>
            {reset.isPending ? t('reset.saving') : t('reset.save')}
          </button>
          <Link to="/forgot-password">{t('reset.askAgain')}</Link>
        </div>
      </form>
    </Page>
  );
}
