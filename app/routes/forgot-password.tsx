import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { SignedOut, useSignedOutForm } from '#app/components/layout/signed-out.tsx'
import { requestPasswordReset } from '#app/domain/auth/accounts.server.ts'
import { ForgotPasswordSchema } from '#app/domain/auth/schemas.ts'
import { readSignedOutForm } from '#app/routes/_helpers/signed-out-form.server.ts'

export const meta: MetaFunction = () => [{ title: 'Forgot password · Kestrel Aerial Survey' }]

/** Shown when the request itself fails. */
const FORGOT_FAILED = 'Something went wrong. Please try again.'

export async function action({ request, context }: ActionFunctionArgs) {
  const read = await readSignedOutForm(request, context, {
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
  const [form, fields] = useSignedOutForm({
    id: 'forgot-password-form',
    schema: ForgotPasswordSchema,
    lastResult: actionData?.result,
  })

  if (actionData?.sent) {
    return (
      <SignedOut.Outcome
        title="Check Your Email"
        description="If an account with that email exists, we've sent a link to reset your password. It expires after 1 hour."
        icon="mail"
        next={{ to: '/login', label: 'Back to Sign In' }}
      >
        <p className="mt-2 text-sm leading-relaxed text-ink-600">
          Didn't receive it? Check your spam folder, or try again in a few minutes.
        </p>
      </SignedOut.Outcome>
    )
  }

  return (
    <SignedOut.Page
      title="Forgot Password"
      description="Enter your email address and we'll send you a link to reset your password."
    >
      <SignedOut.Form form={form}>
        <SignedOut.EmailField field={fields.email} />
        <SignedOut.Submit pendingLabel="Sending...">Send Reset Link</SignedOut.Submit>
      </SignedOut.Form>
      <SignedOut.Footer prompt="Remembered it?" to="/login">
        Back to sign in
      </SignedOut.Footer>
    </SignedOut.Page>
  )
}
