<?php
/*
 * A small "shop" that does the kinds of work real PHP does: it renders
 * product pages (string work), prices carts (arithmetic in methods),
 * searches a catalogue (arrays and closures) and hashes sessions. The
 * profile should show most time in Catalogue::search and Cart::total.
 */

final class Product
{
    public function __construct(public string $name, public float $price, public array $tags) {}
}

final class Catalogue
{
    /** @var Product[] */
    private array $products = [];

    public function __construct(int $size)
    {
        for ($i = 0; $i < $size; $i++) {
            $this->products[] = new Product("product-$i", ($i % 97) + 0.99, ['tag' . ($i % 13), 'tag' . ($i % 7)]);
        }
    }

    public function search(string $tag): array
    {
        return array_values(array_filter($this->products, function (Product $p) use ($tag) {
            return in_array($tag, $p->tags, true);
        }));
    }
}

final class Cart
{
    private array $lines = [];

    public function add(Product $product, int $quantity): void
    {
        $this->lines[] = [$product, $quantity];
    }

    public function total(): float
    {
        $total = 0.0;
        foreach ($this->lines as [$product, $quantity]) {
            for ($i = 0; $i < $quantity; $i++) {
                $total += round($product->price * 1.2, 2);
            }
        }
        return $total;
    }
}

function render(Product $product): string
{
    return str_repeat('<div>' . htmlspecialchars($product->name) . '</div>', 20);
}

function session_token(int $n): string
{
    return hash('sha256', str_repeat((string) $n, 100));
}

$catalogue = new Catalogue(2000);
$seconds = (float) ($argv[1] ?? 2.0);
$start = microtime(true);
$orders = 0;
while (microtime(true) - $start < $seconds) {
    $found = $catalogue->search('tag' . ($orders % 13));
    $cart = new Cart();
    foreach (array_slice($found, 0, 20) as $product) {
        $cart->add($product, 50);
    }
    $cart->total();
    render($found[0]);
    session_token($orders);
    $orders++;
}
printf("served %d orders in %.1f s\n", $orders, microtime(true) - $start);
