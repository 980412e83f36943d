import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs } from '@remix-run/node'
import { Form, useActionData } from '@remix-run/react'
import { AdminDialog, DialogActions } from '#app/components/dashboard/admin/ui.tsx'
import { Field } from '#app/components/forms.tsx'
import { PasswordField } from '#app/components/forms/password-field.tsx'
import { PersonFields } from '#app/components/forms/person-fields.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { AdminCreateUserSchema } from '#app/domain/admin/schemas.ts'
import { createUserByAdmin } from '#app/domain/admin/users.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { COUNTRIES } from '#app/domain/auth/schemas.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { adminDialogLoader } from '#app/routes/_helpers/admin-dialogs.server.ts'
import { submitAdminForm } from '#app/routes/_helpers/admin-forms.server.ts'

const CLOSE = '/admin?tab=users'

export const loader = adminDialogLoader

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  return submitAdminForm(await readFormBody(request), {
    schema: AdminCreateUserSchema,
    failure: 'Failed to create user',
    closeTo: CLOSE,
    save: (value) => createUserByAdmin(admin.id, value),
    done: (user) => ({
      title: 'User Created',
      description: `${fullName(user)} (${user.role}) can now sign in.`,
    }),
  })
}

export default function CreateUserDialog() {
  const actionData = useActionData<typeof action>()
  const submitting = useIsPending({ state: 'submitting' })
  const [form, fields] = useForm({
    id: 'create-user-form',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdminCreateUserSchema }),
    shouldValidate: 'onBlur',
    defaultValue: { role: 'client', country: 'South Africa' },
  })
  return (
    <AdminDialog
      title="Create User"
      description="Accounts of any role. The user signs in with this e-mail and password."
      closeTo={CLOSE}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
        <PersonFields fields={fields} phoneLabel="Phone (optional)" />
        <PasswordField
          labelProps={{ children: 'Password' }}
          errors={fields.password.errors}
          hint="At least 6 characters"
          inputProps={{
            ...getInputProps(fields.password, { type: 'password' }),
            autoComplete: 'new-password',
          }}
        />
        <SelectField
          labelProps={{ children: 'Role' }}
          selectProps={getSelectProps(fields.role)}
          errors={fields.role.errors}
          options={[
            { value: 'client', label: 'Client' },
            { value: 'pilot', label: 'Pilot' },
            { value: 'admin', label: 'Admin' },
          ]}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            labelProps={{ children: 'Company name (optional)' }}
            errors={fields.companyName.errors}
            inputProps={getInputProps(fields.companyName, { type: 'text' })}
          />
          <Field
            labelProps={{ children: 'Industry (optional)' }}
            errors={fields.industry.errors}
            inputProps={getInputProps(fields.industry, { type: 'text' })}
          />
          <SelectField
            labelProps={{ children: 'Country (optional)' }}
            selectProps={getSelectProps(fields.country)}
            errors={fields.country.errors}
            placeholder="Choose…"
            options={COUNTRIES.map((c) => ({ value: c, label: c }))}
          />
        </div>
        <DialogActions closeTo={CLOSE}>
          <StatusButton pending={submitting} pendingLabel="Creating…">
            Create User
          </StatusButton>
        </DialogActions>
      </Form>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
