/** Where Daraja posts (the secret is the last segment, `MPESA_CALLBACK_SECRET`). */
export const MPESA_CALLBACK_PATHS = {
  stk: '/api/payments/mpesa/stk',
  validation: '/api/payments/mpesa/c2b/validation',
  confirmation: '/api/payments/mpesa/c2b/confirmation',
} as const;
