/**
 * `digits` followed by its Luhn check digit (ISO/IEC 7812-1), the last digit of every card and network token number.
 * Counting from the check digit's left neighbour, every second digit is doubled.
 */
export function withLuhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits + String((10 - (sum % 10)) % 10);
}
