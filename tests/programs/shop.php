<?php
// A small PHP program for an Xdebug recording: a recursive function, a
// class's methods called in a loop, and a builtin calling back (usort).
function fib($n) { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }

class Cart {
    private $items = [];
    function add($name, $price) { $this->items[] = [$name, $price]; }
    function total() {
        $sum = 0;
        foreach ($this->items as $item) $sum += $item[1];
        return $sum;
    }
    function sorted() {
        $items = $this->items;
        usort($items, function ($a, $b) { return $a[1] <=> $b[1]; });
        return $items;
    }
}

$cart = new Cart();
for ($i = 0; $i < 2000; $i++) $cart->add("item$i", ($i * 7919) % 1000);
echo $cart->total(), " ", count($cart->sorted()), " ", fib(18), "\n";
