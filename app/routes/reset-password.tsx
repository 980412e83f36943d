import { getInputProps } from '@conform-to/react'
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { NewPasswordFields } from '#app/components/forms/new-password-fields.tsx'
import { SignedOut, useSignedOutForm } from '#app/components/layout/signed-out.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { resetPassword, verifyResetToken } from '#app/domain/auth/accounts.server.ts'
import { RESET_FAILED_MESSAGE, ResetPasswordSchema } from '#app/domain/auth/schemas.ts'
import { readSignedOutForm } from '#app/routes/_helpers/signed-out-form.server.ts'

export const meta: MetaFunction = () => [{ title: 'Reset password · Kestrel Aerial Survey' }]

const HIDDEN = ['password', 'confirmPassword']

/** The server checks the token here, so the page shows the outcome straight away. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token')
  if (!token) throw redirect('/forgot-password')
  const check = verifyResetToken(token)
  return json(
    check.valid
      ? { token, valid: true as const, email: check.email }
      : { token, valid: false as const, email: null },
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  const read = await readSignedOutForm(request, context, {
    schema: ResetPasswordSchema,
    limit: 'reset-password',
    hideFields: HIDDEN,
  })
  if (read.refused) {
    return json(
      { result: read.refused.result, outcome: 'invalid-input' as const },
      { status: read.refused.status },
    )
  }
  const { submission } = read
  let done: boolean
  try {
    done = await resetPassword(submission.value.token, submission.value.password)
  } catch (error) {
    // Not an invalid token (that is a false answer): the product's retry message in the form.
    console.error('[reset-password] unexpected failure', error)
    return json(
      {
        result: submission.reply({ formErrors: [RESET_FAILED_MESSAGE], hideFields: HIDDEN }),
        outcome: 'failed' as const,
      },
      { status: 500 },
    )
  }
  if (!done) {
    return json(
      { result: submission.reply({ hideFields: HIDDEN }), outcome: 'invalid-token' as const },
      { status: 400 },
    )
  }
  return json({ result: submission.reply({ resetForm: true }), outcome: 'done' as const })
}

export default function ResetPasswordPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSignedOutForm({
    id: 'reset-password-form',
    schema: ResetPasswordSchema,
    lastResult: actionData?.result,
    defaultValue: { token: data.token },
  })

  if (actionData?.outcome === 'done') {
    return (
      <SignedOut.Outcome
        title="Password Reset Complete"
        description="Your password has been updated. For your security you have been signed out everywhere; sign in with your new password."
        icon="success"
        next={{ to: '/login', label: 'Sign In' }}
      />
    )
  }

  if (!data.valid || actionData?.outcome === 'invalid-token') {
    return (
      <SignedOut.Outcome
        title="Invalid Reset Link"
        description="This password reset link is invalid or has expired. Reset links expire after 1 hour and can be used only once."
        icon="error"
        next={{ to: '/forgot-password', label: 'Request New Reset Link' }}
        back={{ to: '/login', label: 'Back to Sign In' }}
      />
    )
  }

  return (
    <SignedOut.Page
      title="Create New Password"
      description={
        <>
          Choose a new password for <strong className="font-semibold text-ink-800">{data.email}</strong>
        </>
      }
    >
      <SignedOut.Form form={form}>
        <input {...getInputProps(fields.token, { type: 'hidden' })} />
        {fields.token.errors?.length ? <Alert tone="error">{fields.token.errors.join(' ')}</Alert> : null}
        <NewPasswordFields
          label="New password"
          hint="At least 6 characters"
          password={fields.password}
          confirmPassword={fields.confirmPassword}
        />
        <SignedOut.Submit pendingLabel="Updating Password...">Update Password</SignedOut.Submit>
      </SignedOut.Form>
      <SignedOut.Footer to="/login">Back to sign in</SignedOut.Footer>
    </SignedOut.Page>
  )
}
