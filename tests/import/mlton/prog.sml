(* prog.sml - the program the hand-made MLton profiles beside this file
 * stand for (MLton is not in Debian 12: nothing here was recorded). *)
fun fib n = if n < 2 then n else fib (n - 1) + fib (n - 2)
fun even 0 = true | even n = odd (n - 1)
and odd 0 = false | odd n = even (n - 1)
fun render xs = String.concat (List.map (fn x => Int.toString (fib x)) xs)
val () = print (render [20, 25])
val () = if even 100001 then print "even\n" else print "odd\n"
