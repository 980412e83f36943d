import { expect, test } from '@playwright/test'

import { e2eOrigin } from '../setup/e2e-env.ts'
import { expireResetToken, registerClientViaApi, resetLinkFor } from './accounts-fixtures.ts'
import { login, uniqueEmail } from './fixtures.ts'

test(
  'a visitor registers and lands on the dashboard with the welcome banner, shown once',
  { tag: '@no-js' },
  async ({ page }) => {
    const email = uniqueEmail('signup')
    await page.goto('/register')
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible()
    await page.getByLabel('First name').fill('Nomsa')
    await page.getByLabel('Last name').fill('Khumalo')
    await page.getByLabel('Company name (if applicable)').fill('Khumalo Builders')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('nomsa-pass-1')
    await page.getByLabel('Confirm password').fill('nomsa-pass-1')
    await page.getByLabel('Phone').fill('72 555 1234')
    await page.getByLabel('Industry').fill('Construction')
    await page.getByRole('button', { name: 'Create Account' }).click()

    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('heading', { name: 'Hello, Nomsa' })).toBeVisible()
    await expect(page.getByTestId('welcome-banner')).toContainText('Welcome to Kestrel, Nomsa!')
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Hello, Nomsa' })).toBeVisible()
    await expect(page.getByTestId('welcome-banner')).toHaveCount(0)
  },
)

test('the welcome banner can be dismissed', async ({ page }) => {
  await page.goto('/register')
  await page.getByLabel('First name').fill('Dumi')
  await page.getByLabel('Last name').fill('Zulu')
  await page.getByLabel('Email').fill(uniqueEmail('dismiss'))
  await page.getByLabel('Password', { exact: true }).fill('dumi-pass-1')
  await page.getByLabel('Confirm password').fill('dumi-pass-1')
  await page.getByLabel('Phone').fill('0825551234')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByTestId('welcome-banner')).toBeVisible()
  await page.getByRole('button', { name: 'Dismiss welcome message' }).click()
  await expect(page.getByTestId('welcome-banner')).toHaveCount(0)
})

test('registration shows the fixed messages for a bad form', async ({ page }) => {
  await page.goto('/register')
  await page.getByLabel('First name').fill('Ayo')
  await page.getByLabel('Last name').fill('Test')
  await page.getByLabel('Email').fill(uniqueEmail('bad'))
  await page.getByLabel('Password', { exact: true }).fill('abcdef')
  await page.getByLabel('Confirm password').fill('abcdeg')
  await page.getByLabel('Phone').fill('0825551234')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByText("Passwords don't match")).toBeVisible()
  await expect(page).toHaveURL(/\/register/)
})

test(
  'forgot password → e-mailed link → new password → sign in with it',
  { tag: '@no-js' },
  async ({ page, request }) => {
    const { email, password } = await registerClientViaApi(request)
    const started = Date.now()

    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await expect(page).toHaveURL(/\/forgot-password$/)
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible()
    await expect(page.getByText('If an account with that email exists')).toBeVisible()

    const link = await resetLinkFor(email, started)
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Create New Password' })).toBeVisible()
    await expect(page.getByText(email)).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill('second-pass-2')
    await page.getByLabel('Confirm new password').fill('second-pass-2')
    await page.getByRole('button', { name: 'Update Password' }).click()
    await expect(page.getByRole('heading', { name: 'Password Reset Complete' })).toBeVisible()

    await page.getByRole('link', { name: 'Sign In' }).click()
    await expect(page).toHaveURL(/\/login$/)
    // The old password no longer works; the new one does.
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect(page.getByRole('alert')).toContainText('Invalid email or password')
    await login(page, email, 'second-pass-2')
    await expect(page.getByRole('heading', { name: 'Hello, Reset' })).toBeVisible()

    // The link was single-use.
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible()
  },
)

test('an expired reset link shows Invalid Reset Link with a way to request a new one', async ({
  page,
  request,
}) => {
  const { email } = await registerClientViaApi(request)
  const started = Date.now()
  // The request carries the new account's cookie: a write names its origin.
  const res = await request.post('/api/auth/forgot-password', {
    data: { email },
    headers: { Origin: e2eOrigin },
  })
  expect(res.status()).toBe(200)
  const link = await resetLinkFor(email, started)
  expireResetToken(link)

  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible()
  await expect(page.getByText('Reset links expire after 1 hour')).toBeVisible()
  await page.getByRole('link', { name: 'Request New Reset Link' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible()
})

test('forgot password for an unknown address gives the same answer', async ({ page }) => {
  await page.goto('/forgot-password')
  await page.getByLabel('Email').fill(uniqueEmail('ghost'))
  await page.getByRole('button', { name: 'Send Reset Link' }).click()
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible()
})

test('reset-password without a token goes to forgot-password', async ({ page }) => {
  await page.goto('/reset-password')
  await expect(page).toHaveURL(/\/forgot-password$/)
})
