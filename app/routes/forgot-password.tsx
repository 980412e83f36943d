import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { Field, FormErrors } from '#app/components/forms.tsx'
import { AuthLayout } from '#app/components/layout/auth-layout.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { requestPasswordReset } from '#app/domain/auth/accounts.server.ts'
import { ForgotPasswordSchema } from '#app/domain/auth/schemas.ts'
import { readSignedOutForm } from '#app/domain/auth/signed-out-form.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { HoneypotInputs } from 'remix-utils/honeypot/react'

export const meta: MetaFunction = () => [{ title: 'Forgot password · Kestrel Aerial Survey' }]

/** ADR 171 "Messages": shown when the request itself fails. */
const FORGOT_FAILED = 'Something went wrong. Please try again.'

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormBody(request)
  const read = await readSignedOutForm(formData, context, {
    schema: ForgotPasswordSchema,
    limit: 'forgot-password',
  })
  if (read.refused) return json({ result: read.refused.result, sent: false }, { status: read.refused.status })
  const { submission } = read
  try {
    // The same answer whether or not the address has an account.
    await requestPasswordReset(submission.value.email)
  } catch (error) {
    console.error('[forgot-password] could not send the reset link', error)
    return json({ result: submission.reply({ formErrors: [FORGOT_FAILED] }), sent: false }, { status: 502 })
  }
  return json({ result: submission.reply({ resetForm: true }), sent: true })
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ formAction: '/forgot-password' })
  const [form, fields] = useForm({
    id: 'forgot-password-form',
    constraint: getZodConstraint(ForgotPasswordSchema),
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })

  if (actionData?.sent) {
    return (
      <AuthLayout>
        <PageCard
          title="Check Your Email"
          description="If an account with that email exists, we've sent a link to reset your password. It expires after 1 hour."
          icon="mail"
        >
          <p className="mt-2 text-sm leading-relaxed text-ink-600">
            Didn't receive it? Check your spam folder, or try again in a few minutes.
          </p>
          <Link to="/login" className="btn-primary mt-6 w-full">
            Back to Sign In
          </Link>
        </PageCard>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout>
      <PageCard
        title="Forgot Password"
        description="Enter your email address and we'll send you a link to reset your password."
      >
        <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
          <HoneypotInputs />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="Email"
            errors={fields.email.errors}
            inputProps={{
              ...getInputProps(fields.email, { type: 'email' }),
              autoComplete: 'email',
              placeholder: 'you@company.co.za',
            }}
          />
          <StatusButton pending={pending} pendingLabel="Sending..." className="w-full">
            Send Reset Link
          </StatusButton>
        </Form>
        <p className="mt-6 text-center text-sm text-ink-600">
          Remembered it?{' '}
          <Link to="/login" className="link">
            Back to sign in
          </Link>
        </p>
      </PageCard>
    </AuthLayout>
  )
}
