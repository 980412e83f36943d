import { expect, test } from '@playwright/test'

import { DEMO_PASSWORD, login } from './fixtures.ts'

test('a wrong password shows the failure in an alert box', { tag: '@no-js' }, async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
  await page.getByLabel('Email').fill('client@example.com')
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toContainText('Invalid email or password')
  await expect(page).toHaveURL(/\/login/)
})

test('the demo client signs in and logs out', { tag: '@no-js' }, async ({ page }) => {
  await login(page, 'client@example.com', DEMO_PASSWORD)
  await expect(page.getByRole('heading', { name: /Hello, Chloe/ })).toBeVisible()
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login/)
})

test('an unknown address shows the 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
})
