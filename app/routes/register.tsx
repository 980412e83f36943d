import { getInputProps, getSelectProps } from '@conform-to/react'
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { NewPasswordFields } from '#app/components/forms/new-password-fields.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SignedOut, useSignedOutForm } from '#app/components/layout/signed-out.tsx'
import { PrivacyNote } from '#app/components/legal/privacy-note.tsx'
import { registerClient } from '#app/domain/auth/accounts.server.ts'
import { COUNTRIES, RegisterSchema, REGISTRATION_FAILED_MESSAGE } from '#app/domain/auth/schemas.ts'
import { startSession } from '#app/domain/auth/session.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { setWelcomeCookie, welcomeMessageFor } from '#app/lib/http/welcome.server.ts'
import { readSignedOutForm } from '#app/routes/_helpers/signed-out-form.server.ts'

export { signedOutOnlyLoader as loader } from '#app/routes/_helpers/signed-out-form.server.ts'

export const meta: MetaFunction = () => [{ title: 'Create account · Kestrel Aerial Survey' }]

const HIDDEN = ['password', 'confirmPassword']

export async function action({ request, context }: ActionFunctionArgs) {
  const read = await readSignedOutForm(request, context, {
    schema: RegisterSchema,
    limit: 'register',
    hideFields: HIDDEN,
  })
  if (read.refused) {
    return json({ result: read.refused.result, registered: false }, { status: read.refused.status })
  }
  const { submission } = read
  let user
  try {
    user = await registerClient(submission.value)
  } catch (error) {
    if (isDomainError(error)) {
      return json(
        {
          result: submission.reply({ fieldErrors: error.fieldErrors ?? {}, hideFields: HIDDEN }),
          registered: false,
        },
        { status: error.status },
      )
    }
    // An unexpected failure gets the product's fallback in the form, not the error page.
    console.error('[register] unexpected failure', error)
    return json(
      {
        result: submission.reply({ formErrors: [REGISTRATION_FAILED_MESSAGE], hideFields: HIDDEN }),
        registered: false,
      },
      { status: 500 },
    )
  }
  // Sign the new client straight in; if that fails the account still exists.
  try {
    const { cookie } = await startSession(user.id, request, context)
    const headers = new Headers()
    headers.append('Set-Cookie', cookie)
    headers.append('Set-Cookie', await setWelcomeCookie(welcomeMessageFor(user.firstName)))
    return redirect('/dashboard', { headers })
  } catch (error) {
    console.error('[register] auto-login failed', error)
    return json({ result: submission.reply({ resetForm: true }), registered: true }, { status: 201 })
  }
}

export default function RegisterPage() {
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSignedOutForm({
    id: 'register-form',
    schema: RegisterSchema,
    lastResult: actionData?.result,
    defaultValue: { country: 'South Africa' },
  })

  if (actionData?.registered) {
    return (
      <SignedOut.Outcome
        title="Registration Successful!"
        description="Your account has been created. Please sign in to continue."
        icon="success"
        next={{ to: '/login', label: 'Go to Sign In' }}
      />
    )
  }

  return (
    <SignedOut.Page
      tagline="Professional drone mapping and aerial surveying — from the first flight to the final report."
      title="Create Account"
      description="Plan survey flights and get instant quotes in rand."
    >
      <PrivacyNote className="mt-4 rounded-lg border border-ink-100 bg-ink-50 p-3">
        Before you give us your details: we use them to run your account and quote, fly and invoice your
        surveys, and share them only with our flight operator, PayFast and our e-mail and hosting providers.
        You can download or delete your data from your profile at any time.
      </PrivacyNote>
      <SignedOut.Form form={form}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            labelProps={{ children: 'First name' }}
            errors={fields.firstName.errors}
            inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name' }}
          />
          <Field
            labelProps={{ children: 'Last name' }}
            errors={fields.lastName.errors}
            inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name' }}
          />
        </div>
        <Field
          labelProps={{ children: 'Company name (if applicable)' }}
          errors={fields.companyName.errors}
          inputProps={{
            ...getInputProps(fields.companyName, { type: 'text' }),
            autoComplete: 'organization',
          }}
        />
        <Field
          labelProps={{ children: 'Email' }}
          errors={fields.email.errors}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        </div>
        <Field
          labelProps={{ children: 'Phone' }}
          errors={fields.phone.errors}
          prefix="+27"
          inputProps={{
            ...getInputProps(fields.phone, { type: 'tel' }),
            autoComplete: 'tel-national',
            placeholder: '82 123 4567',
          }}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            labelProps={{ children: 'Industry' }}
            errors={fields.industry.errors}
            hint="e.g. Agriculture, Mining, Construction"
            inputProps={{
              ...getInputProps(fields.industry, { type: 'text' }),
              placeholder: 'e.g. Agriculture, Mining, Construction',
            }}
          />
          <SelectField
            labelProps={{ children: 'Country' }}
            selectProps={getSelectProps(fields.country)}
            errors={fields.country.errors}
            options={COUNTRIES.map((c) => ({ value: c, label: c }))}
          />
        </div>
        <div className="rounded-lg border border-ink-100 bg-ink-50 p-3">
          <p className="text-sm font-medium text-ink-700">Account Type</p>
          <p className="mt-1 text-sm">
            <span className="badge bg-emerald-100 text-emerald-800">Client</span>{' '}
            <span className="text-ink-600">Project owners who need drone mapping services</span>
          </p>
          <p className="mt-1 text-xs text-ink-500">
            Pilot and Admin accounts are created by administrators only.
          </p>
        </div>
        <label className="flex items-start gap-3 text-sm text-ink-700">
          <input
            {...getInputProps(fields.marketingOptIn, { type: 'checkbox' })}
            className="mt-0.5 h-4 w-4 shrink-0 rounded border-ink-300 text-amber-700 focus:ring-amber-400"
          />
          <span>
            Send me occasional news and offers by e-mail (optional). You can unsubscribe at any time.
          </span>
        </label>
        <SignedOut.Submit pendingLabel="Creating Account...">Create Account</SignedOut.Submit>
      </SignedOut.Form>
      <SignedOut.Footer prompt="Already have an account?" to="/login">
        Sign in
      </SignedOut.Footer>
    </SignedOut.Page>
  )
}
