/** The admin's two-factor dialogs share the login's code form (components/code-form.tsx). */
export { CodeForm } from "@/components/code-form";
