# The sum of two numbers.
add() {
    echo $(($1 + $2))
}
