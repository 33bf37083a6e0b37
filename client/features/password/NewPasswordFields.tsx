import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { TextField } from '../../ui/forms';

/** The new password and its confirmation, as the change and the reset screens both ask for them. */
export function NewPasswordFields({
  next,
  confirm,
  onNext,
  onConfirm,
}: {
  next: string;
  confirm: string;
  onNext: (value: string) => void;
  onConfirm: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('password.new')}
        hint={t('password.hint', { n: PASSWORD_MIN_LENGTH })}
        type="password"
        autoComplete="new-password"
        required
        value={next}
        onChange={(e) => onNext(e.target.value)}
      />
      <TextField
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirm(e.target.value)}
      />
    </>
  );
}
