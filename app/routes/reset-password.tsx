import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { FormErrors } from '#app/components/forms.tsx'
import { NewPasswordFields } from '#app/components/forms/new-password-fields.tsx'
import { AuthLayout } from '#app/components/layout/auth-layout.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { resetPassword, verifyResetToken } from '#app/domain/auth/accounts.server.ts'
import { RESET_FAILED_MESSAGE, ResetPasswordSchema } from '#app/domain/auth/schemas.ts'
import { readSignedOutForm } from '#app/domain/auth/signed-out-form.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { HoneypotInputs } from 'remix-utils/honeypot/react'

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
  const formData = await readFormBody(request)
  const read = await readSignedOutForm(formData, context, {
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
  const pending = useIsPending({ formAction: '/reset-password' })
  const [form, fields] = useForm({
    id: 'reset-password-form',
    constraint: getZodConstraint(ResetPasswordSchema),
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: { token: data.token },
  })

  if (actionData?.outcome === 'done') {
    return (
      <AuthLayout>
        <PageCard
          title="Password Reset Complete"
          description="Your password has been updated. For your security you have been signed out everywhere; sign in with your new password."
          icon="success"
        >
          <Link to="/login" className="btn-primary mt-6 w-full">
            Sign In
          </Link>
        </PageCard>
      </AuthLayout>
    )
  }

  if (!data.valid || actionData?.outcome === 'invalid-token') {
    return (
      <AuthLayout>
        <PageCard
          title="Invalid Reset Link"
          description="This password reset link is invalid or has expired. Reset links expire after 1 hour and can be used only once."
          icon="error"
        >
          <Link to="/forgot-password" className="btn-primary mt-6 w-full">
            Request New Reset Link
          </Link>
          <Link to="/login" className="btn-ghost mt-2 w-full">
            Back to Sign In
          </Link>
        </PageCard>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout>
      <PageCard
        title="Create New Password"
        description={
          <>
            Choose a new password for <strong className="font-semibold text-ink-800">{data.email}</strong>
          </>
        }
      >
        <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
          <HoneypotInputs />
          <input {...getInputProps(fields.token, { type: 'hidden' })} />
          <FormErrors id={form.errorId} errors={form.errors} />
          {fields.token.errors?.length ? <Alert tone="error">{fields.token.errors.join(' ')}</Alert> : null}
          <NewPasswordFields
            label="New password"
            hint="At least 6 characters"
            password={fields.password}
            confirmPassword={fields.confirmPassword}
          />
          <StatusButton pending={pending} pendingLabel="Updating Password..." className="w-full">
            Update Password
          </StatusButton>
        </Form>
        <p className="mt-6 text-center text-sm text-ink-600">
          <Link to="/login" className="link">
            Back to sign in
          </Link>
        </p>
      </PageCard>
    </AuthLayout>
  )
}
