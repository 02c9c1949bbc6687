/** The signed-in customer as the header needs it (root loader data). */
export type ShellUser = { userId: string; name: string; imageUrl: string | null; wishlistCount: number };
