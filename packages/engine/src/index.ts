export const hello = (n: string): string => `hi ${n}`;
