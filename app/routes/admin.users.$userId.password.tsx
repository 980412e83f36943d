import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { AdminDialog, DialogActions } from '#app/components/dashboard/admin/ui.tsx'
import { NewPasswordFields } from '#app/components/forms/new-password-fields.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { AdminSetPasswordFormSchema } from '#app/domain/admin/schemas.ts'
import { resetPasswordByAdmin } from '#app/domain/admin/users.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { fullName } from '#app/domain/users/person-name.ts'
import { findUserById } from '#app/domain/users/users.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { submitAdminForm } from '#app/routes/_helpers/admin-forms.server.ts'

const CLOSE = '/admin?tab=users'

function targetUser(params: { userId?: string }) {
  const user = findUserById(pageId(params.userId))
  if (!user) throw new Response('User not found', { status: 404 })
  return user
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const user = targetUser(params)
  return json({ user: { id: user.id, name: fullName(user), email: user.email } })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const user = targetUser(params)
  return submitAdminForm(await readFormBody(request), {
    schema: AdminSetPasswordFormSchema,
    failure: 'Failed to update password',
    closeTo: CLOSE,
    hideFields: ['newPassword', 'confirmPassword'],
    save: (value) => resetPasswordByAdmin(admin.id, user.id, value.newPassword),
    done: () => ({
      title: 'Password Updated',
      description: `${user.email} has a new password and was signed out everywhere.`,
    }),
  })
}

export default function ResetPasswordDialog() {
  const { user } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const submitting = useIsPending({ state: 'submitting' })
  const [form, fields] = useForm({
    id: 'reset-password-form',
    constraint: getZodConstraint(AdminSetPasswordFormSchema),
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdminSetPasswordFormSchema }),
    shouldValidate: 'onBlur',
  })
  return (
    <AdminDialog
      title="Reset Password"
      description={`Set a new password for ${user.name} (${user.email}). Their current sessions end.`}
      closeTo={CLOSE}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <NewPasswordFields
          label="New password"
          hint="At least 6 characters"
          password={fields.newPassword}
          confirmPassword={fields.confirmPassword}
        />
        <DialogActions closeTo={CLOSE}>
          <StatusButton pending={submitting} pendingLabel="Updating…">
            Update Password
          </StatusButton>
        </DialogActions>
      </Form>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
