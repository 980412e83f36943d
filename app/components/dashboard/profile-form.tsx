import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { PersonFields } from '#app/components/forms/person-fields.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { ClientProfileSchema, FULL_TAX_INVOICE_OVER_CENTS } from '#app/domain/payments/billing.ts'
import { formatRand } from '#app/lib/format/numbers.ts'

export interface ProfileValues {
  firstName: string
  lastName: string
  email: string
  phone: string | null
  companyName: string | null
  vatNumber?: string | null
  billingAddress?: string | null
  marketingOptIn?: boolean
}

/**
 * Profile tab: first name, last name, phone and company are saved; e-mail is read-only.
 * With `billing`, also the VAT number and billing address the tax invoice shows (clients).
 */
export function ProfileForm({
  profile,
  description = 'Keep your contact details current so our pilots can reach you on survey day.',
  withCompany = true,
  billing = false,
  children,
}: {
  profile: ProfileValues
  description?: string
  /** Pilots have no company field. */
  withCompany?: boolean
  /** Clients: VAT number and billing address for the tax invoice. */
  billing?: boolean
  /** Shown under the form (e.g. the pilot's credentials). */
  children?: React.ReactNode
}) {
  // The client schema is a superset: without the billing inputs its extra fields stay empty.
  const schema = ClientProfileSchema
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>()
  const navigation = useNavigation()
  const pending = useIsPending({ intent: 'update-profile' })
  const [form, fields] = useForm({
    id: 'profile-form',
    constraint: getZodConstraint(schema),
    lastResult:
      actionData?.intent === 'update-profile' && navigation.state === 'idle' ? actionData.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone ?? '',
      companyName: profile.companyName ?? '',
      vatNumber: profile.vatNumber ?? '',
      billingAddress: profile.billingAddress ?? '',
    },
  })
  return (
    <section className="card max-w-2xl p-6" aria-labelledby="profile-heading">
      <h2 id="profile-heading" className="text-lg font-semibold text-ink-950">
        Profile
      </h2>
      <p className="mt-1 text-sm text-ink-500">{description}</p>
      <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="update-profile" />
        <PersonFields
          fields={fields}
          readOnlyEmail={{
            id: 'profile-email',
            name: 'email-readonly',
            value: profile.email,
            hint: "Your sign-in address can't be changed here.",
          }}
        />
        {withCompany ? (
          <Field
            labelProps={{ children: 'Company' }}
            errors={fields.companyName.errors}
            inputProps={getInputProps(fields.companyName, { type: 'text' })}
          />
        ) : (
          <input type="hidden" name={fields.companyName.name} value={profile.companyName ?? ''} />
        )}
        {billing ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              labelProps={{ children: 'VAT number (optional)' }}
              errors={fields.vatNumber.errors}
              hint="Shown on your tax invoices"
              inputProps={{
                ...getInputProps(fields.vatNumber, { type: 'text' }),
                inputMode: 'numeric',
                placeholder: '4xxxxxxxxx',
              }}
            />
            <Field
              labelProps={{ children: 'Billing address (optional)' }}
              errors={fields.billingAddress.errors}
              hint={`Needed at checkout for a total over ${formatRand(FULL_TAX_INVOICE_OVER_CENTS)}`}
              inputProps={{
                ...getInputProps(fields.billingAddress, { type: 'text' }),
                autoComplete: 'street-address',
              }}
            />
          </div>
        ) : null}
        <StatusButton pending={pending} pendingLabel="Saving…">
          Update Profile
        </StatusButton>
      </Form>
      {children}
    </section>
  )
}
