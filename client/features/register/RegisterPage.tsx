import { Link, useNavigate } from 'react-router';
import { ZRegisterInput } from '../../../shared/schemas/auth';
import { ZPortalAccount } from '../../../shared/schemas/orders';
import { storedLanguage, useTranslation } from '../../i18n';
import { saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { FormStatus, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { useZodForm } from '../../ui/useZodForm';

/** The account's fields, and the password typed twice: the same rule as a portal login's. */
const ZRegisterForm = ZRegisterInput.and(ZPortalAccount);

export function RegisterPage() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const form = useZodForm({
    schema: ZRegisterForm,
    initial: { name: '', email: '', phone: '', password: '', confirm: '' },
    toInput: ({ confirm, ...f }) => ({ ...f, confirmPassword: confirm }),
    fields: { confirmPassword: 'confirm' },
  });
  const register = trpc.auth.register.useMutation({
    onSuccess: ({ token, user }) => {
      saveSession(token, user);
      navigate('/order', { replace: true });
    },
    onError: (error) => form.report('error', errorMessage(error, t('register.failed'))),
  });

  return (
    <Page title={t('register.title')} subtitle={t('register.subtitle')}>
      <form
        className="card narrow"
        onSubmit={form.submit(({ name, email, phone, password }) =>
          // The new account takes the language this phone shows.
          register.mutate({ name, email, phone, password, language: storedLanguage() }),
        )}
        noValidate
      >
        <FormStatus message={form.message} />
        <TextField label={t('register.name')} autoComplete="name" required {...form.field('name')} />
        <TextField
          label={t('register.email')}
          type="email"
          autoComplete="email"
          required
          {...form.field('email')}
        />
        <TextField
          label={t('register.phone')}
          type="tel"
          autoComplete="tel"
          placeholder="07XX..."
          {...form.field('phone')}
        />
        <TextField
          label={t('register.password')}
          type="password"
          autoComplete="new-password"
          required
          hint={t('register.passwordHint')}
          {...form.field('password')}
        />
        <TextField
          label={t('register.confirm')}
          type="password"
          autoComplete="new-password"
          required
          {...form.field('confirm')}
        />
        <div className="button-row">
          <button className="button" type="submit" disabled={register.isPending}>
            {register.isPending ? t('register.submitting') : t('register.submit')}
          </button>
          <Link to="/login">{t('register.haveAccount')}</Link>
        </div>
      </form>
    </Page>
  );
}
