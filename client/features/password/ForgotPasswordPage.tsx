import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage, trpc } from '../../trpc';
import { Alert, FormAnswer, FormStatus, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';

/**
 * A forgotten password: the e-mail address, and the same answer whether or not it has an account. The link
 * goes by e-mail (SMTP_URL, MAIL_FROM) and a code by SMS to the account's phone (Africa's Talking), as set
 * up; with neither the screen says to ask an admin instead.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const options = trpc.auth.passwordOptions.useQuery();
  const [email, setEmail] = useState('');
  const request = trpc.auth.requestPasswordReset.useMutation();

  function submit(e: FormEvent) {
    e.preventDefault();
    request.mutate({ email });
  }

  const by = options.data
    ? options.data.emailReset && options.data.smsReset
      ? 'both'
      : options.data.smsReset
        ? 'sms'
        : options.data.emailReset
          ? 'email'
          : null
    : 'email';
  if (by === null)
    return (
      <Page title={t('forgot.title')}>
        <div className="card narrow">
          <Alert tone="info">{t('forgot.askAdmin')}</Alert>
          <Link to="/login">{t('forgot.backToLogin')}</Link>
        </div>
      </Page>
    );

  return (
    <Page title={t('forgot.title')}>
      <form className="card narrow" onSubmit={submit} noValidate>
        {request.isSuccess ? (
          <FormAnswer seq={request.submittedAt}>
            <Alert tone="success">
              {t(by === 'both' ? 'forgot.sentBoth' : by === 'sms' ? 'forgot.sentSms' : 'forgot.sent')}
            </Alert>
          </FormAnswer>
        ) : null}
        <FormStatus
          message={
            request.error
              ? {
                  tone: 'error',
                  text: errorMessage(request.error, t('forgot.failed')),
                  seq: request.submittedAt,
                }
              : null
          }
        />
        <p className="muted">
          {t(by === 'both' ? 'forgot.introBoth' : by === 'sms' ? 'forgot.introSms' : 'forgot.intro')}
        </p>
        <TextField
          label={t('forgot.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <div className="button-row">
          <button className="button" type="submit" disabled={request.isPending || !options.data}>
            {request.isPending ? t('forgot.sending') : t('forgot.send')}
          </button>
          <Link to="/reset-password">{t('forgot.haveCode')}</Link>
          <Link to="/login">{t('forgot.backToLogin')}</Link>
        </div>
      </form>
    </Page>
  );
}
